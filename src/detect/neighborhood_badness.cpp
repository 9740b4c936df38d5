// aggregate_neighborhoods: page results reduced by URL prefix on the prefix's owner rank.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "crd/base/uint128.hpp"
#include "crd/detect/detection.hpp"
#include "exact_moments.hpp"
#include "prefix_owner.hpp"
#include "url_prefixes.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::detect {

namespace {
// A neighborhood's totals as they travel and combine: exact integer sums, so the same for any
// rank count and any way pages fall into runs.
struct Totals {
  std::string prefix;
  std::uint32_t depth = 0;
  std::uint64_t pages = 0;
  std::uint64_t chunks = 0;
  std::uint64_t labeled = 0;
  uint128 containment_sum = 0;  // fixed point
  static constexpr auto fields() {
    return std::tuple(&Totals::prefix, &Totals::depth, &Totals::pages, &Totals::chunks, &Totals::labeled,
                      &Totals::containment_sum);
  }
};

// The label ids occurring in a neighborhood (distinct within each run; merged at the owner).
struct Labels {
  std::string prefix;
  std::vector<std::uint32_t> ids;
  static constexpr auto fields() { return std::tuple(&Labels::prefix, &Labels::ids); }
};

// A lambda, not a function: the sort's comparisons inline it (a function pointer they call).
constexpr auto prefix_of = [](const auto& r) -> const std::string& { return r.prefix; };
}  // namespace

std::vector<NeighborhoodRow> aggregate_neighborhoods(comm::Transport& transport, const std::vector<std::string>& keys,
                                                     const PageScores& scores, const DetectOptions& options,
                                                     std::size_t round_bytes,
                                                     std::vector<std::vector<std::uint32_t>>* labels_out) {
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

  std::vector<Totals> sums;
  std::vector<Labels> labels;
  std::uint32_t run = 0;  // runs are numbered from 1: listed_in_run 0 means never
  bool in_run = false;
  Totals sum;
  std::vector<std::uint32_t> run_labels;
  const auto flush = [&] {
    if (!in_run) return;
    if (!run_labels.empty()) labels.push_back({sum.prefix, std::move(run_labels)});
    sums.push_back(std::move(sum));
    in_run = false;
  };
  for (std::size_t d = 0; d < depths; ++d) {
    for (const std::uint32_t i : order) {
      if (d >= prefixes[i].size()) continue;
      const Prefix& p = prefixes[i][d];
      if (!in_run || p.text != sum.prefix) {
        flush();
        in_run = true;
        ++run;
        sum = Totals{};
        sum.prefix = std::string(p.text);
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

  const shuffle::ShuffleConfig config{round_bytes};
  sums = shuffle::reduce_by_key(
      transport, std::move(sums), prefix_of, prefix_owner,
      [](Totals& into, const Totals& from) {
        into.pages += from.pages;
        into.chunks += from.chunks;
        into.labeled += from.labeled;
        into.containment_sum += from.containment_sum;
      },
      config);
  if (labels_out != nullptr) {
    // Every labeled prefix has totals too, and both come back ascending by prefix: walk them
    // together so the label lists run parallel to the rows.
    labels = shuffle::group_by_key(transport, std::move(labels), prefix_of, prefix_owner, &Labels::ids, config);
    labels_out->assign(sums.size(), {});
    std::size_t at = 0;
    for (Labels& l : labels) {
      while (at < sums.size() && sums[at].prefix < l.prefix) ++at;
      if (at == sums.size() || sums[at].prefix != l.prefix)
        throw std::logic_error("aggregate_neighborhoods: labels without totals");
      l.ids.erase(std::unique(l.ids.begin(), l.ids.end()), l.ids.end());
      (*labels_out)[at] = std::move(l.ids);
    }
  }
  std::vector<NeighborhoodRow> rows;
  rows.reserve(sums.size());
  for (Totals& t : sums) {
    NeighborhoodRow row;
    row.prefix = std::move(t.prefix);
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
