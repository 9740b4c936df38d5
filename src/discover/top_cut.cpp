// top_cut: bisection for the cut count, then ties by hash across ranks.
#include "top_cut.hpp"

#include <algorithm>

#include "crd/comm/collectives.hpp"

namespace crd::discover {

namespace {

std::uint64_t global_count_at_least(comm::Transport& transport, const std::vector<std::uint64_t>& counts,
                                    std::uint64_t c) {
  std::uint64_t n = 0;
  for (std::uint64_t v : counts) n += v >= c;
  return comm::sum(transport, n);
}

}  // namespace

std::vector<std::uint8_t> top_cut(comm::Transport& transport, const std::vector<std::uint64_t>& counts,
                                  std::uint64_t top) {
  const std::uint64_t sizes[2] = {
      comm::sum(transport, counts.size()),
      comm::max(transport, counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end()))};
  if (top == 0 || sizes[0] <= top) return std::vector<std::uint8_t>(counts.size(), 1);

  // The largest c with #(count ≥ c) ≥ top: it exists (c = 1 counts every candidate, > top of them).
  std::uint64_t lo = 1, hi = sizes[1];
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (global_count_at_least(transport, counts, mid) >= top) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const std::uint64_t cut = lo;
  const std::uint64_t above = cut == UINT64_MAX ? 0 : global_count_at_least(transport, counts, cut + 1);
  const std::uint64_t tie_places = top - above;  // > 0 by the choice of cut

  std::uint64_t my_ties = 0;
  for (std::uint64_t v : counts) my_ties += v == cut;
  std::uint64_t ties_before = comm::exscan_sum(transport, my_ties);
  std::vector<std::uint8_t> keep(counts.size(), 0);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > cut) {
      keep[i] = 1;
    } else if (counts[i] == cut) {
      keep[i] = ties_before < tie_places ? 1 : 0;
      ++ties_before;
    }
  }
  return keep;
}

}  // namespace crd::discover
