// ASCII-only text helpers for protocol headers (WARC, ARC, HTTP): field names and values are
// ASCII by specification, so no locale is involved.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace crd::io::detail {

inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

// True if s starts with `prefix` ignoring ASCII case in s; `prefix` must be lowercase.
inline bool istarts_with(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (ascii_lower(s[i]) != prefix[i]) return false;
  }
  return true;
}

// True if s ends with `suffix` ignoring ASCII case in s; `suffix` must be lowercase.
inline bool iends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && istarts_with(s.substr(s.size() - suffix.size()), suffix);
}

// Strips spaces, tabs and CRs at both ends (header values; lines may end in "\r\r\n").
inline std::string_view trim(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

inline std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace crd::io::detail
