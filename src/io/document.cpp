// Which documents get chunked: by media type, by file extension, or by sniffing the first bytes.
#include <array>
#include <cstdint>

#include "crd/io/document.hpp"

#include "ascii.hpp"

namespace crd::io {
using detail::iends_with;
using detail::istarts_with;
namespace {

constexpr std::size_t kSniffBytes = 1024;

// A tag name must end where the prefix does ("<p>" or "<p class", not "<pre").
bool starts_with_markup(std::string_view s) {
  static constexpr std::array<std::string_view, 7> kOpeners = {"<!doctype html", "<html", "<head", "<body",
                                                              "<p",             "<div",  "<!--"};
  for (std::string_view o : kOpeners) {
    if (!istarts_with(s, o)) continue;
    if (o == "<!--" || s.size() == o.size()) return true;
    char next = s[o.size()];
    if (next == '>' || next == ' ' || next == '\t' || next == '\n' || next == '\r' || next == '/') return true;
  }
  return false;
}

// Mostly printable UTF-8: no NUL, and at most 1 in 20 bytes a control character or broken UTF-8.
bool looks_like_text(std::string_view s) {
  if (s.empty()) return false;
  std::size_t bad = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) return false;
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f) ++bad;
      ++i;
      continue;
    }
    std::size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (c >= 0xf5) len = 0;
    bool ok = len > 0;
    for (std::size_t k = 1; ok && k < len; ++k) {
      if (i + k >= s.size()) break;  // cut by the sniff window, not broken
      ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    }
    if (!ok) {
      ++bad;
      ++i;
    } else {
      i += len;
    }
  }
  return bad * 20 <= s.size();
}

}  // namespace

std::string_view sniff_media_type(std::string_view body) {
  std::string_view s = body.substr(0, kSniffBytes);
  if (s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  std::string_view t = s;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t' || t.front() == '\n' || t.front() == '\r' ||
                        t.front() == '\f')) {
    t.remove_prefix(1);
  }
  if (starts_with_markup(t)) return "text/html";
  if (looks_like_text(s)) return "text/plain";
  return "";
}

std::string_view media_type_from_extension(std::string_view path) {
  if (iends_with(path, ".html") || iends_with(path, ".htm")) return "text/html";
  if (iends_with(path, ".xhtml")) return "application/xhtml+xml";
  if (iends_with(path, ".txt")) return "text/plain";
  return "";
}

bool is_chunkable(const Document& doc) {
  std::string_view type = doc.content_type;
  if (type.empty() || type == "application/octet-stream") type = sniff_media_type(doc.body);
  return type == "text/html" || type == "application/xhtml+xml" || type == "text/plain";
}

}  // namespace crd::io
