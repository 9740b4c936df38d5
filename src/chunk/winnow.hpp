// Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003): which of a sequence of gram hashes
// a document keeps as its fingerprints. Pure; the winnow chunker (winnow_chunker.hpp) feeds it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace crd::chunk::detail {

// The positions selected from hashes by windows of `window` consecutive hashes (window ≥ 1), in
// increasing order, each once. In every window the minimum hash is selected; among equal minima
// the one the window before selected if it is still inside (robust winnowing: repeated text does
// not select every repeat), else the rightmost. Fewer hashes than a window: one window of them all.
// Guarantee: every window's minimum is selected, so two sequences sharing `window` consecutive
// hashes both select a position of equal hash inside that stretch.
std::vector<std::size_t> winnow(std::span<const std::uint64_t> hashes, std::size_t window);
// The same into `selected` (replaced), whose capacity a caller reuses from page to page.
void winnow(std::span<const std::uint64_t> hashes, std::size_t window, std::vector<std::size_t>& selected);

}  // namespace crd::chunk::detail
