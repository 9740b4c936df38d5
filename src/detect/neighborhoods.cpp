// aggregate_neighborhoods: page results re-shuffled by URL prefix to the prefix's owner rank.
#include <algorithm>
#include <functional>
#include <string>
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

// Lookup by string_view without building a std::string per received record.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
}  // namespace

std::vector<NeighborhoodRow> aggregate_neighborhoods(comm::Transport& transport,
                                                     const std::vector<std::string>& keys,
                                                     const PageScores& scores, const DetectOptions& options,
                                                     std::size_t round_bytes,
                                                     std::vector<std::vector<std::uint32_t>>* labels_out) {
  const int nranks = transport.size();
  const std::size_t pages = scores.size();
  // Pages combine locally before they travel: in key order the pages under one prefix are
  // neighbours, so one pass per depth sums each run of equal prefixes and sends one record per
  // run, not one per page and prefix. The sums are exact, so the result does not depend on how
  // pages fall into runs or ranks; a prefix split over two runs just sends two records.
  std::vector<std::uint32_t> order(pages);
  for (std::uint32_t i = 0; i < pages; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return keys[scores.page[a]] < keys[scores.page[b]]; });
  std::vector<std::vector<Prefix>> prefixes(pages);
  std::size_t depths = 0;
  for (std::size_t i = 0; i < pages; ++i) {
    prefixes[i] = neighborhood_prefixes(keys[scores.page[i]], options.max_neighborhood_depth);
    depths = std::max(depths, prefixes[i].size());
  }
  // Label ids as dense local indices, so "already listed in this run" is one array lookup: a
  // host's template labels recur on every one of its pages.
  std::vector<std::uint32_t> local_label(labels_out != nullptr ? scores.label_ids.size() : 0);
  std::size_t distinct_labels = 0;
  {
    std::unordered_map<std::uint32_t, std::uint32_t> index;
    for (std::size_t m = 0; m < local_label.size(); ++m) {
      const auto [it, added] = index.try_emplace(scores.label_ids[m], static_cast<std::uint32_t>(index.size()));
      local_label[m] = it->second;
    }
    distinct_labels = index.size();
  }
  std::vector<std::uint32_t> listed_in_run(distinct_labels, 0);

  shuffle::Buckets buckets(nranks);
  shuffle::ByteWriter w;
  std::uint32_t run = 0;  // runs are numbered from 1: listed_in_run 0 means never
  bool in_run = false;
  std::string_view run_prefix;
  Totals sum;
  std::vector<std::uint32_t> run_labels;
  const auto flush = [&] {
    if (!in_run) return;
    const int owner = prefix_owner(run_prefix, nranks);
    w.clear();
    w.pod(std::uint8_t{0}).str(run_prefix).pod(sum.depth).pod(sum.pages).pod(sum.chunks).pod(sum.labeled);
    w.pod(static_cast<std::uint64_t>(sum.containment_sum)).pod(static_cast<std::uint64_t>(sum.containment_sum >> 64));
    buckets.add(owner, w.bytes());
    if (!run_labels.empty()) {  // distinct within the run; the owner merges runs and sorts
      w.clear();
      w.pod(std::uint8_t{1}).str(run_prefix).pod(static_cast<std::uint64_t>(run_labels.size()));
      for (auto id : run_labels) w.pod(id);
      buckets.add(owner, w.bytes());
    }
    in_run = false;
  };
  for (std::size_t d = 0; d < depths; ++d) {
    for (const std::uint32_t i : order) {
      if (d >= prefixes[i].size()) continue;
      const Prefix& p = prefixes[i][d];
      if (!in_run || p.text != run_prefix) {
        flush();
        in_run = true;
        run_prefix = p.text;
        ++run;
        sum = Totals{};
        sum.depth = static_cast<std::uint32_t>(p.depth);
        run_labels.clear();
      }
      sum.pages += 1;
      sum.chunks += scores.chunks[i];
      sum.labeled += scores.labeled[i];
      sum.containment_sum += ExactMoments::to_fixed(scores.containment[i]);
      if (labels_out == nullptr) continue;
      for (std::uint64_t m = scores.match_offsets[i]; m < scores.match_offsets[i + 1]; ++m) {
        std::uint32_t& listed = listed_in_run[local_label[m]];
        if (listed == run) continue;
        listed = run;
        run_labels.push_back(scores.label_ids[m]);
      }
    }
    flush();
  }

  std::unordered_map<std::string, Totals, StringHash, std::equal_to<>> owned;
  shuffle::exchange(transport, buckets, round_bytes, [&](int, std::span<const std::byte> rec) {
    shuffle::ByteReader r(rec);
    const auto kind = r.pod<std::uint8_t>();
    const std::string_view prefix = r.str();
    auto it = owned.find(prefix);
    if (it == owned.end()) it = owned.emplace(std::string(prefix), Totals{}).first;
    Totals& t = it->second;
    if (kind == 1) {
      for (auto n = r.pod<std::uint64_t>(); n > 0; --n) t.labels.push_back(r.pod<std::uint32_t>());
      return;
    }
    t.depth = r.pod<std::uint32_t>();
    t.pages += r.pod<std::uint64_t>();
    t.chunks += r.pod<std::uint64_t>();
    t.labeled += r.pod<std::uint64_t>();
    const auto lo = r.pod<std::uint64_t>();
    const auto hi = r.pod<std::uint64_t>();
    t.containment_sum += (static_cast<uint128>(hi) << 64) | lo;
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
