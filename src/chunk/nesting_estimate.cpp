// nesting_exceeds: one pass over the '<'s of a page.
#include "nesting_estimate.hpp"

#include <array>
#include <cstring>

#include "boundary_finder.hpp"

namespace crd::chunk::detail {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Void elements, and elements with optional end tags (implicitly closed by their siblings).
bool does_not_nest(std::string_view name) {
  static constexpr std::array<std::string_view, 38> kNames = {
      "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
      "wbr", "keygen", "basefont", "bgsound", "frame", "p", "li", "dt", "dd", "tr", "td", "th", "option",
      "optgroup", "rb", "rt", "rp", "rtc", "thead", "tbody", "tfoot", "colgroup", "caption", "html", "body"};
  char lower[16];
  if (name.size() > sizeof lower) return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    lower[i] = ascii_lower(name[i]);
  const std::string_view n(lower, name.size());
  for (std::string_view k : kNames)
    if (k == n) return true;
  return false;
}

}  // namespace

bool nesting_exceeds(std::string_view page, std::size_t limit) {
  std::size_t depth = 0;
  std::size_t pos = 0;
  while (true) {
    const void* hit = std::memchr(page.data() + pos, '<', page.size() - pos);
    if (hit == nullptr) return false;
    pos = static_cast<std::size_t>(static_cast<const char*>(hit) - page.data()) + 1;
    if (pos >= page.size()) return false;
    const bool closing = page[pos] == '/';
    const std::size_t name_start = pos + (closing ? 1 : 0);
    std::size_t name_end = name_start;
    while (name_end < page.size() && (is_alpha(page[name_end]) || (name_end > name_start && page[name_end] >= '0' &&
                                                                   page[name_end] <= '9')))
      ++name_end;
    if (name_end == name_start) continue;  // "<!", "<?", "< ", text
    if (does_not_nest(page.substr(name_start, name_end - name_start))) continue;
    if (closing) {
      if (depth > 0) --depth;
      continue;
    }
    const std::size_t close = page.find('>', name_end);
    if (close != std::string_view::npos && close > name_end && page[close - 1] == '/') continue;  // <x/>
    if (++depth > limit) return true;
  }
}

}  // namespace crd::chunk::detail
