// Text helpers for inspect and check.
#include "text_format.hpp"

#include "crd/base/printable.hpp"

namespace crd::cli {

std::string one_line(std::string_view text, std::size_t width) {
  std::string out;
  std::string piece;
  for (std::size_t at = 0; at < text.size();) {
    piece.clear();
    const char c = text[at];
    // Line breaks and tabs are layout in a page, not content: one space keeps the sample on its line.
    if (c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f') {
      piece = " ";
      ++at;
    } else {
      at += append_printable(text, at, piece);
    }
    if (out.size() + piece.size() > width) return out + "…";  // never inside an escape or a character
    out += piece;
  }
  return out;
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
