// UTF-8 validation, HTML escaping and JSON string encoding for the report.
#include "text_escape.hpp"

#include <cstdint>

namespace crd::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at text[i], or 0 if invalid; `bad` is then the
// length of its maximal invalid subpart (at least 1), per Unicode §3.9 "U+FFFD substitution".
std::size_t valid_sequence(std::string_view text, std::size_t i, std::size_t& bad) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t b0 = byte(i);
  bad = 1;
  if (b0 < 0x80) return 1;
  std::size_t len = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;  // the valid range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;  // continuation byte, C0/C1 overlong lead, or F5..FF
  }
  for (std::size_t k = 1; k < len; ++k) {
    if (i + k >= text.size()) return 0;
    const std::uint8_t b = byte(i + k);
    const bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return 0;
    bad = k + 1;
  }
  return len;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t bad = 0;
    const std::size_t len = valid_sequence(text, i, bad);
    if (len == 0) {
      out += kReplacement;
      i += bad;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string html_escape(std::string_view text) {
  const std::string valid = valid_utf8(text);
  std::string out;
  out.reserve(valid.size() + valid.size() / 8);
  for (char c : valid) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if ((u < 0x20 && c != '\t' && c != '\n') || u == 0x7f)
          out += kReplacement;
        else
          out += c;
    }
  }
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto unicode_escape = [&](unsigned code) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 0xF];
  };
  const std::string valid = valid_utf8(text);
  out += '"';
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const char c = valid[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || c == '<' || c == '>' || c == '&' || u == 0x7f) {
      unicode_escape(u);
    } else if (u == 0xE2 && i + 2 < valid.size() && static_cast<unsigned char>(valid[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(valid[i + 2]) == 0xA8 || static_cast<unsigned char>(valid[i + 2]) == 0xA9)) {
      unicode_escape(static_cast<unsigned char>(valid[i + 2]) == 0xA8 ? 0x2028 : 0x2029);  // JS line terminators
      i += 2;
    } else {
      out += c;
    }
  }
  out += '"';
}

}  // namespace crd::report
