// Sorting a page's 64-bit hashes (tokens, shingles, quilts' grams), which are uniform: they come
// out of mix64.
#pragma once

#include <cstdint>
#include <vector>

namespace crd::text {

// Sorts v ascending: the same values as std::sort, in about a third of its time on a page's
// thousands of hashes (every page of a neardup or quilts run is sorted, so it counts).
void sort_hashes(std::vector<std::uint64_t>& v);
// The same with `scratch` as the second array (v and scratch may trade buffers), so a caller
// sorting page after page allocates nothing once the buffers are big enough.
void sort_hashes(std::vector<std::uint64_t>& v, std::vector<std::uint64_t>& scratch);

}  // namespace crd::text
