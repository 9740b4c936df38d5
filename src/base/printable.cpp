// Terminal-safe text (printable.hpp).
#include "crd/base/printable.hpp"

namespace crd {
namespace {

void append_hex(unsigned char byte, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 15];
}

// Length of the valid UTF-8 sequence starting at text[at], 0 if none (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const auto cont = [&](std::size_t i) { return at + i < text.size() && (byte(i) & 0xC0) == 0x80; };
  const unsigned char b0 = byte(0);
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (b0 == 0xE0 && byte(1) < 0xA0) return 0;   // overlong
    if (b0 == 0xED && byte(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (b0 == 0xF0 && byte(1) < 0x90) return 0;   // overlong
    if (b0 == 0xF4 && byte(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

char32_t code_point(std::string_view c) {
  const auto b = [&](std::size_t i) { return static_cast<char32_t>(static_cast<unsigned char>(c[i])); };
  if (c.size() == 2) return (b(0) & 0x1F) << 6 | (b(1) & 0x3F);
  if (c.size() == 3) return (b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
  return (b(0) & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
}

// Characters that change how the line around them is shown without being seen themselves: the
// bidirectional marks, embeddings, overrides and isolates (U+202E makes "moc.elpmaxe" read as
// "example.com"), the line and paragraph separators (a new line in some terminals and viewers),
// and the zero-width ones and the BOM that hide a difference between two lines.
bool is_format_control(char32_t cp) {
  return cp == 0x061C || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB);
}

// A backslash, u and four hex digits: visible, and unambiguous since a backslash is itself escaped.
void append_code_point(char32_t cp, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 15];
}

}  // namespace

std::size_t append_printable(std::string_view text, std::size_t at, std::string& out) {
  const auto b0 = static_cast<unsigned char>(text[at]);
  if (b0 < 0x80) {
    if (b0 < 0x20 || b0 == 0x7F) {
      append_hex(b0, out);
    } else if (b0 == '\\') {
      out += "\\\\";
    } else {
      out += static_cast<char>(b0);
    }
    return 1;
  }
  const std::size_t n = utf8_length(text, at);
  // U+0080–U+009F (C2 80 – C2 9F): C1 controls, e.g. U+009B (CSI) starts an escape sequence.
  const bool c1 = n == 2 && b0 == 0xC2 && static_cast<unsigned char>(text[at + 1]) <= 0x9F;
  if (n == 0 || c1) {
    const std::size_t bytes = n == 0 ? 1 : n;
    for (std::size_t i = 0; i < bytes; ++i) append_hex(static_cast<unsigned char>(text[at + i]), out);
    return bytes;
  }
  if (const char32_t cp = code_point(text.substr(at, n)); is_format_control(cp)) {
    append_code_point(cp, out);
    return n;
  }
  out.append(text.substr(at, n));
  return n;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) at += append_printable(text, at, out);
  return out;
}

}  // namespace crd
