// Histogram: local per-owner counts, reduced by occurrence value, then sorted across ranks.
#include "crd/discover/histogram.hpp"

#include <map>

#include "crd/base/uint128.hpp"
#include "crd/shuffle/reduce_by_key.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"

namespace crd::discover {

std::map<std::uint64_t, std::uint64_t> OccurrenceTally::take() {
  std::map<std::uint64_t, std::uint64_t> all = std::move(many_);
  for (std::size_t c = 0; c < few_.size(); ++c)
    if (few_[c] != 0) all[c] += few_[c];
  few_.fill(0);
  return all;
}

std::vector<HistogramRow> build_histogram(comm::Transport& transport,
                                          const std::vector<std::uint64_t>& counts,
                                          std::size_t round_bytes) {
  // Few distinct counts among many items: pre-combined on this rank, far cheaper than sorting one
  // record per item.
  OccurrenceTally local;
  for (const std::uint64_t c : counts) local.add(c);
  return build_histogram(transport, local.take(), round_bytes);
}

std::vector<HistogramRow> build_histogram(comm::Transport& transport, const std::map<std::uint64_t, std::uint64_t>& local,
                                          std::size_t round_bytes) {
  std::vector<HistogramRow> rows;
  rows.reserve(local.size());
  for (const auto& [occ, n] : local) rows.push_back({occ, n});

  rows = shuffle::reduce_by_key(
      transport, std::move(rows), [](const HistogramRow& r) { return r.occurrences; },
      // Fibonacci hashing spreads small consecutive counts over ranks.
      [](std::uint64_t occ, int nranks) { return scale_to_rank(occ * 0x9E3779B97F4A7C15ull, nranks); },
      [](HistogramRow& into, const HistogramRow& from) { into.distinct += from.distinct; }, {round_bytes});
  return shuffle::sort_across_ranks(
      transport, std::move(rows),
      [](const HistogramRow& a, const HistogramRow& b) { return a.occurrences < b.occurrences; }, round_bytes);
}

}  // namespace crd::discover
