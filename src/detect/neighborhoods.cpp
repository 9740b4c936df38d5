// aggregate_neighborhoods: page results re-shuffled by URL prefix to the prefix's owner rank.
#include <string_view>
#include <unordered_map>

#include "crd/core/uint128.hpp"
#include "crd/detect/detection.hpp"
#include "crd/detect/exact_moments.hpp"
#include "crd/detect/neighborhood.hpp"
#include "crd/detect/prefix_owner.hpp"
#include "crd/shuffle/byte_codec.hpp"
#include "crd/shuffle/exchange.hpp"

namespace crd::detect {

namespace {
struct Totals {
  std::uint32_t depth = 0;
  std::uint64_t pages = 0;
  std::uint64_t chunks = 0;
  std::uint64_t labeled = 0;
  uint128 containment_sum = 0;  // fixed point, exact: the same sum for any rank count
};
}  // namespace

std::vector<NeighborhoodRow> aggregate_neighborhoods(comm::Transport& transport,
                                                     const std::vector<std::string>& keys,
                                                     const PageScores& scores, const DetectOptions& options,
                                                     std::size_t round_bytes) {
  const int nranks = transport.size();
  shuffle::Buckets buckets(nranks);
  shuffle::ByteWriter w;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const std::uint64_t fixed = ExactMoments::to_fixed(scores.containment[i]);
    for (const Prefix& p : neighborhood_prefixes(keys[scores.page[i]], options.max_neighborhood_depth)) {
      w.clear();
      w.str(p.text).pod(static_cast<std::uint32_t>(p.depth)).pod(scores.chunks[i]).pod(scores.labeled[i]).pod(fixed);
      buckets.add(prefix_owner(p.text, nranks), w.bytes());
    }
  }
  std::unordered_map<std::string, Totals> owned;
  shuffle::exchange(transport, buckets, round_bytes, [&](int, std::span<const std::byte> rec) {
    shuffle::ByteReader r(rec);
    Totals& t = owned[std::string(r.str())];
    t.depth = r.pod<std::uint32_t>();
    t.pages += 1;
    t.chunks += r.pod<std::uint32_t>();
    t.labeled += r.pod<std::uint32_t>();
    t.containment_sum += r.pod<std::uint64_t>();
  });
  std::vector<NeighborhoodRow> rows;
  rows.reserve(owned.size());
  for (auto& [prefix, t] : owned) {
    NeighborhoodRow row;
    row.prefix = prefix;
    row.depth = t.depth;
    row.pages = t.pages;
    row.chunks = t.chunks;
    row.labeled = t.labeled;
    row.badness = options.badness == BadnessMode::Pages
                      ? ExactMoments::from_fixed(t.containment_sum, t.pages)
                      : (t.chunks == 0 ? 0.0 : static_cast<double>(t.labeled) / static_cast<double>(t.chunks));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace crd::detect
