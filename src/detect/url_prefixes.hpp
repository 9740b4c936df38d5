// Neighborhoods (paper §4.3): the URL prefixes a page belongs to — its host, host/a, host/a/b, …
// down to (not including) the page's own last component. A page at a host's root belongs to the
// host. Depth counts path components: the host is depth 0.
#pragma once

#include <string_view>
#include <vector>

namespace crd::detect {

struct Prefix {
  std::string_view text;
  int depth = 0;
};

// max_depth < 0: no limit; 0: the host only.
std::vector<Prefix> neighborhood_prefixes(std::string_view key, int max_depth);

}  // namespace crd::detect
