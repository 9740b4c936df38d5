// URL prefixes of a page key: the neighborhoods it belongs to (paper §4.3).
#include "url_prefixes.hpp"

namespace crd::detect {

std::vector<Prefix> neighborhood_prefixes(std::string_view key, int max_depth) {
  std::vector<Prefix> out;
  std::size_t slash = key.find('/');
  out.push_back({key.substr(0, slash), 0});
  if (slash == std::string_view::npos) return out;
  int depth = 1;
  while (max_depth < 0 || depth <= max_depth) {
    const std::size_t next = key.find('/', slash + 1);
    if (next == std::string_view::npos) break;  // the rest is the page itself
    out.push_back({key.substr(0, next), depth});
    slash = next;
    ++depth;
  }
  return out;
}

}  // namespace crd::detect
