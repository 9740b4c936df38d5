// aggregate_neighborhoods: page results re-shuffled by URL prefix to the prefix's owner rank.
#include <algorithm>
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
  std::vector<std::uint32_t> labels;  // label ids occurring here (distinct after the exchange)
};
}  // namespace

std::vector<NeighborhoodRow> aggregate_neighborhoods(comm::Transport& transport,
                                                     const std::vector<std::string>& keys,
                                                     const PageScores& scores, const DetectOptions& options,
                                                     std::size_t round_bytes,
                                                     std::vector<std::vector<std::uint32_t>>* labels_out) {
  const int nranks = transport.size();
  shuffle::Buckets buckets(nranks);
  shuffle::ByteWriter w;
  // Labels per neighborhood, made distinct on this rank before they travel: a template chunk on
  // every page of a host goes to the host's owner once per rank, not once per page.
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> local_labels;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const std::uint64_t fixed = ExactMoments::to_fixed(scores.containment[i]);
    for (const Prefix& p : neighborhood_prefixes(keys[scores.page[i]], options.max_neighborhood_depth)) {
      w.clear();
      w.pod(std::uint8_t{0}).str(p.text).pod(static_cast<std::uint32_t>(p.depth)).pod(scores.chunks[i]);
      w.pod(scores.labeled[i]).pod(fixed);
      buckets.add(prefix_owner(p.text, nranks), w.bytes());
      if (labels_out != nullptr && scores.match_offsets[i] != scores.match_offsets[i + 1]) {
        auto& ids = local_labels[p.text];
        ids.insert(ids.end(), scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i]),
                   scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i + 1]));
        if (ids.size() > 4096) {  // keep memory near the distinct count
          std::sort(ids.begin(), ids.end());
          ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        }
      }
    }
  }
  for (auto& [prefix, ids] : local_labels) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    w.clear();
    w.pod(std::uint8_t{1}).str(prefix).pod(static_cast<std::uint64_t>(ids.size()));
    for (auto id : ids) w.pod(id);
    buckets.add(prefix_owner(prefix, nranks), w.bytes());
  }
  std::unordered_map<std::string, Totals> owned;
  shuffle::exchange(transport, buckets, round_bytes, [&](int, std::span<const std::byte> rec) {
    shuffle::ByteReader r(rec);
    const auto kind = r.pod<std::uint8_t>();
    Totals& t = owned[std::string(r.str())];
    if (kind == 1) {
      for (auto n = r.pod<std::uint64_t>(); n > 0; --n) t.labels.push_back(r.pod<std::uint32_t>());
      return;
    }
    t.depth = r.pod<std::uint32_t>();
    t.pages += 1;
    t.chunks += r.pod<std::uint32_t>();
    t.labeled += r.pod<std::uint32_t>();
    t.containment_sum += r.pod<std::uint64_t>();
  });
  std::vector<NeighborhoodRow> rows;
  rows.reserve(owned.size());
  if (labels_out != nullptr) labels_out->clear();
  for (auto& [prefix, t] : owned) {
    if (labels_out != nullptr) {
      std::sort(t.labels.begin(), t.labels.end());
      t.labels.erase(std::unique(t.labels.begin(), t.labels.end()), t.labels.end());
      labels_out->push_back(std::move(t.labels));
    }
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
