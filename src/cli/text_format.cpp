// Text helpers for inspect and check.
#include "crd/cli/text_format.hpp"

namespace crd::cli {

std::string one_line(std::string_view text, std::size_t width) {
  std::string out;
  for (char c : text) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  if (out.size() <= width) return out;
  std::size_t cut = width;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  return out + "…";
}

std::string hex_prefix(const std::vector<std::uint8_t>& bytes, std::size_t digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    if (out.size() >= digits) break;
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  out.resize(std::min(out.size(), digits));
  return out;
}

}  // namespace crd::cli
