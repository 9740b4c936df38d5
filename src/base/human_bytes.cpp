// Byte counts in binary units (human_bytes.hpp).
#include "crd/base/human_bytes.hpp"

#include <cstdio>

namespace crd {

std::string human_bytes(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (unit < 6 && bytes >> (10 * (unit + 1)) != 0) ++unit;
  const int shift = 10 * unit;
  if (unit == 0 || bytes % (std::uint64_t{1} << shift) == 0)
    return std::to_string(bytes >> shift) + " " + kUnits[unit];
  // Truncated, not rounded, to two decimals: 1023.999 KiB must not read "1024.00 KiB". The
  // fraction's top 10 bits give the hundredths (at most one low, never high) within 64 bits.
  const std::uint64_t whole = bytes >> shift;
  const std::uint64_t top = (bytes & ((std::uint64_t{1} << shift) - 1)) >> (shift - 10);
  const auto hundredths = static_cast<unsigned>((top * 100) >> 10);
  char text[48];
  std::snprintf(text, sizeof text, "%llu.%02u %s", static_cast<unsigned long long>(whole), hundredths, kUnits[unit]);
  return text;
}

}  // namespace crd
