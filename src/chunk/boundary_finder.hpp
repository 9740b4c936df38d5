// Boundary finder (internal): locates chunk boundaries in raw markup per docs/chunking.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crd::chunk::detail {

class BoundaryFinder {
 public:
  // tags: boundary tag names; lowercased here. Throws UsageError on an empty or odd name.
  // prefix: a name matches as a prefix of the tag name (<p matches <pre), whatever follows it.
  explicit BoundaryFinder(const std::vector<std::string>& tags, bool prefix = false);

  // The offset of the first boundary '<' at or after `pos`, or page.size() when there is none.
  // `pos` is advanced past the returned boundary (and past any raw text it opens), so repeated
  // calls walk the page. Comments and script/style raw text never hold a boundary.
  std::size_t next(std::string_view page, std::size_t& pos) const;

 private:
  enum : std::uint8_t { kTagStart = 1, kRawTextStart = 2, kBang = 4 };

  // True if a boundary tag name (plus delimiter) starts at p, just after a '<'.
  bool is_boundary_tag(const char* p, const char* end) const;
  // Where scanning resumes after a comment or raw-text element opened at lt, or end.
  static const char* skip_comment(const char* lt, const char* end);
  static const char* skip_raw_text(const char* name, std::size_t len, const char* after, const char* end);

  std::vector<std::string> tags_;
  bool prefix_ = false;
  std::array<std::uint8_t, 256> first_{};  // what a byte after '<' may start
};

// ASCII-only lowercase (HTML tag names are ASCII-case-insensitive, nothing else is folded).
inline char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// True if [p, end) starts with `name` (lowercase) case-insensitively.
inline bool name_prefix_at(const char* p, const char* end, std::string_view name) noexcept {
  if (static_cast<std::size_t>(end - p) < name.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (ascii_lower(p[i]) != name[i]) return false;
  }
  return true;
}

// True if [p, end) starts with `name` (lowercase) case-insensitively, followed by whitespace,
// '/', '>' or the end: the contract's notion of "this is that tag".
inline bool tag_name_at(const char* p, const char* end, std::string_view name) noexcept {
  if (!name_prefix_at(p, end, name)) return false;
  if (p + name.size() == end) return true;
  const char c = p[name.size()];
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>';
}

}  // namespace crd::chunk::detail
