// Hex encoding and decoding of 160-bit digests.
#include "crd/hash/digest.hpp"

namespace crd {

namespace {

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string to_hex(const Digest& d) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * d.bytes.size(), '0');
  for (std::size_t i = 0; i < d.bytes.size(); ++i) {
    out[2 * i] = kDigits[d.bytes[i] >> 4];
    out[2 * i + 1] = kDigits[d.bytes[i] & 0x0f];
  }
  return out;
}

std::optional<Digest> digest_from_hex(std::string_view hex) {
  Digest d;
  if (hex.size() != 2 * d.bytes.size()) return std::nullopt;
  for (std::size_t i = 0; i < d.bytes.size(); ++i) {
    const int hi = hex_value(hex[2 * i]);
    const int lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    d.bytes[i] = static_cast<std::uint8_t>((hi << 4) | lo);
  }
  return d;
}

}  // namespace crd
