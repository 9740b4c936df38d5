// Histogram: local per-owner counts, routed by occurrence value, summed, then sorted across ranks.
#include "crd/discover/histogram.hpp"

#include <map>

#include "crd/core/uint128.hpp"
#include "crd/shuffle/exchange.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"

namespace crd::discover {

std::vector<HistogramRow> build_histogram(comm::Transport& transport,
                                          const std::vector<std::uint64_t>& counts,
                                          std::size_t round_bytes) {
  std::map<std::uint64_t, std::uint64_t> local;
  for (auto c : counts) ++local[c];

  const int nranks = transport.size();
  shuffle::Buckets buckets(nranks);
  for (const auto& [occ, n] : local) {
    // Fibonacci hashing spreads small consecutive counts over ranks.
    const int dest = scale_to_rank(occ * 0x9E3779B97F4A7C15ull, nranks);
    buckets.add_pod(dest, HistogramRow{occ, n});
  }
  std::map<std::uint64_t, std::uint64_t> owned;
  shuffle::exchange(transport, buckets, round_bytes, [&](int, std::span<const std::byte> rec) {
    const auto row = shuffle::read_pod<HistogramRow>(rec);
    owned[row.occurrences] += row.distinct;
  });
  std::vector<HistogramRow> rows;
  rows.reserve(owned.size());
  for (const auto& [occ, n] : owned) rows.push_back({occ, n});
  return shuffle::sort_across_ranks(
      transport, std::move(rows),
      [](const HistogramRow& a, const HistogramRow& b) { return a.occurrences < b.occurrences; },
      [](const HistogramRow& r, shuffle::ByteWriter& w) { w.pod(r); },
      [](shuffle::ByteReader& r) { return r.pod<HistogramRow>(); }, round_bytes);
}

}  // namespace crd::discover
