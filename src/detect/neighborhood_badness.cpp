// aggregate_neighborhoods: page results reduced by URL prefix on the prefix's owner rank.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "crd/base/uint128.hpp"
#include "crd/detect/detection.hpp"
#include "crd/shuffle/reduce_by_key.hpp"
#include "exact_moments.hpp"
#include "label_slots.hpp"
#include "prefix_owner.hpp"
#include "url_prefixes.hpp"

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
  std::uint64_t flagged_pages = 0;
  static constexpr auto fields() {
    return std::tuple(&Totals::prefix, &Totals::depth, &Totals::pages, &Totals::chunks, &Totals::labeled,
                      &Totals::containment_sum, &Totals::flagged_pages);
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

// Label ids as dense local indices (one per match of scores), so "already listed in this run" is
// one array lookup: a host's template labels recur on every one of its pages. Sets `distinct`.
std::vector<std::uint32_t> dense_label_ids(const PageScores& scores, std::size_t& distinct) {
  std::vector<std::uint32_t> local_label(scores.label_ids.size());
  detail::LabelSlots slots;
  for (std::size_t m = 0; m < local_label.size(); ++m) local_label[m] = slots.slot(scores.label_ids[m]);
  distinct = slots.size();
  return local_label;
}

// This rank's records: one per run of pages under one prefix, per depth.
struct LocalRuns {
  std::vector<Totals> sums;
  std::vector<Labels> labels;  // with_labels only: the distinct labels of each run that has any
};

// Pages combine locally before they travel: in key order the pages under one prefix are
// neighbours, so one pass per depth sums each run of equal prefixes and sends one record per
// run, not one per page and prefix. The sums are exact, so the result does not depend on how
// pages fall into runs or ranks; a prefix split over two runs just sends two records.
LocalRuns local_runs(const std::vector<std::string>& keys, const PageScores& scores, const DetectOptions& options,
                     bool with_labels, std::span<const std::uint8_t> page_flagged) {
  const std::size_t pages = scores.size();
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
  std::size_t distinct_labels = 0;
  const std::vector<std::uint32_t> local_label =
      with_labels ? dense_label_ids(scores, distinct_labels) : std::vector<std::uint32_t>{};
  std::vector<std::uint32_t> listed_in_run(distinct_labels, 0);

  LocalRuns out;
  std::uint32_t run = 0;  // runs are numbered from 1: listed_in_run 0 means never
  bool in_run = false;
  Totals sum;
  std::vector<std::uint32_t> run_labels;
  const auto flush = [&] {
    if (!in_run) return;
    if (!run_labels.empty()) out.labels.push_back({sum.prefix, std::move(run_labels)});
    out.sums.push_back(std::move(sum));
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
      if (!page_flagged.empty()) sum.flagged_pages += page_flagged[i];
      if (!with_labels) continue;
      for (std::uint64_t m = scores.match_offsets[i]; m < scores.match_offsets[i + 1]; ++m) {
        std::uint32_t& listed = listed_in_run[local_label[m]];
        if (listed == run) continue;
        listed = run;
        run_labels.push_back(scores.label_ids[m]);
      }
    }
    flush();
  }
  return out;
}

// Every labeled prefix has totals too, and both come back ascending by prefix: walk them
// together so the label lists run parallel to the rows. A prefix's runs from several ranks may
// list one label each: marks by label slot keep it once (in the order first met, which the
// counts made of them do not depend on), where sorting every list cost more than the rest of it.
std::vector<std::vector<std::uint32_t>> labels_by_row(std::vector<Labels> labels, const std::vector<Totals>& sums) {
  std::vector<std::vector<std::uint32_t>> out(sums.size());
  detail::LabelSlots slots;
  std::vector<std::size_t> listed_in_row;  // by slot: 1 + the row that last listed the label
  std::size_t at = 0;
  for (Labels& l : labels) {
    while (at < sums.size() && sums[at].prefix < l.prefix) ++at;
    if (at == sums.size() || sums[at].prefix != l.prefix)
      throw std::logic_error("aggregate_neighborhoods: labels without totals");
    std::size_t kept = 0;
    for (const std::uint32_t id : l.ids) {
      const std::uint32_t s = slots.slot(id);
      if (s == listed_in_row.size()) listed_in_row.push_back(0);
      if (listed_in_row[s] == at + 1) continue;
      listed_in_row[s] = at + 1;
      l.ids[kept++] = id;
    }
    l.ids.resize(kept);
    out[at] = std::move(l.ids);
  }
  return out;
}

NeighborhoodRow row_of(Totals& t, BadnessMode badness) {
  NeighborhoodRow row;
  row.prefix = std::move(t.prefix);
  row.depth = t.depth;
  row.pages = t.pages;
  row.chunks = t.chunks;
  row.labeled = t.labeled;
  row.flagged_pages = t.flagged_pages;
  row.badness = badness == BadnessMode::Pages
                    ? ExactMoments::from_fixed(t.containment_sum, t.pages)
                    : (t.chunks == 0 ? 0.0 : static_cast<double>(t.labeled) / static_cast<double>(t.chunks));
  return row;
}

}  // namespace

std::vector<NeighborhoodRow> aggregate_neighborhoods(comm::Transport& transport, const std::vector<std::string>& keys,
                                                     const PageScores& scores, const DetectOptions& options,
                                                     std::size_t round_bytes,
                                                     std::vector<std::vector<std::uint32_t>>* labels_out,
                                                     std::span<const std::uint8_t> page_flagged) {
  LocalRuns runs = local_runs(keys, scores, options, labels_out != nullptr, page_flagged);
  const shuffle::ShuffleConfig config{round_bytes};
  std::vector<Totals> sums = shuffle::reduce_by_key(
      transport, std::move(runs.sums), prefix_of, prefix_owner,
      [](Totals& into, const Totals& from) {
        into.pages += from.pages;
        into.chunks += from.chunks;
        into.labeled += from.labeled;
        into.containment_sum += from.containment_sum;
        into.flagged_pages += from.flagged_pages;
      },
      config);
  if (labels_out != nullptr)
    *labels_out = labels_by_row(
        shuffle::reduce_by_key(
            transport, std::move(runs.labels), prefix_of, prefix_owner,
            [](Labels& into, Labels& from) { into.ids.insert(into.ids.end(), from.ids.begin(), from.ids.end()); },
            config),
        sums);
  std::vector<NeighborhoodRow> rows;
  rows.reserve(sums.size());
  for (Totals& t : sums) rows.push_back(row_of(t, options.badness));
  return rows;
}

}  // namespace crd::detect
