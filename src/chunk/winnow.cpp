// Winnowing with the robust tie rule, in one pass: the current minimum is kept until a smaller
// hash arrives or it leaves the window; only then is the window scanned again.
#include "winnow.hpp"

#include <algorithm>

namespace crd::chunk::detail {

std::vector<std::size_t> winnow(std::span<const std::uint64_t> hashes, std::size_t window) {
  std::vector<std::size_t> selected;
  winnow(hashes, window, selected);
  return selected;
}

void winnow(std::span<const std::uint64_t> hashes, std::size_t window, std::vector<std::size_t>& selected) {
  selected.clear();
  if (hashes.empty()) return;
  const std::size_t w = std::clamp<std::size_t>(window, 1, hashes.size());
  // The rightmost minimum of [begin, begin + w).
  auto rescan = [&](std::size_t begin) {
    std::size_t best = begin;
    for (std::size_t i = begin + 1; i < begin + w; ++i)
      if (hashes[i] <= hashes[best]) best = i;
    return best;
  };
  std::size_t min = rescan(0);
  selected.push_back(min);
  for (std::size_t end = w; end < hashes.size(); ++end) {  // the window [end − w + 1, end]
    const std::size_t begin = end - w + 1;
    if (min < begin) {
      min = rescan(begin);
    } else if (hashes[end] < hashes[min]) {
      min = end;
    } else {
      continue;  // the selection stands (an equal hash arriving does not move it)
    }
    selected.push_back(min);
  }
}

}  // namespace crd::chunk::detail
