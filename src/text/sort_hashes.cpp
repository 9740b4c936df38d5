// One pass by the leading byte into a second array, then std::sort on each of the 256 ranges: a
// few values each on a page, where std::sort is an insertion sort.
#include "crd/text/sort_hashes.hpp"

#include <algorithm>
#include <cstddef>

namespace crd::text {

void sort_hashes(std::vector<std::uint64_t>& v) {
  std::vector<std::uint64_t> scratch;
  sort_hashes(v, scratch);
}

void sort_hashes(std::vector<std::uint64_t>& v, std::vector<std::uint64_t>& out) {
  if (v.size() < 512) {
    std::sort(v.begin(), v.end());
    return;
  }
  std::size_t start[257] = {};
  for (const std::uint64_t x : v) ++start[(x >> 56) + 1];
  for (std::size_t b = 0; b < 256; ++b) start[b + 1] += start[b];
  out.resize(v.size());
  std::size_t next[256];
  std::copy(start, start + 256, next);
  for (const std::uint64_t x : v) out[next[x >> 56]++] = x;
  for (std::size_t b = 0; b < 256; ++b)
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(start[b]), out.begin() + static_cast<std::ptrdiff_t>(start[b + 1]));
  v.swap(out);
}

}  // namespace crd::text
