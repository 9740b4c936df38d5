// discover_labels: count → select → notify → annotate → sort; label_counts: select → annotate.
#include "crd/discover/discovery.hpp"

#include <algorithm>

#include "crd/base/saturating.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "top_cut.hpp"

namespace crd::discover {
namespace {

// The owner ids labeled by the rules, ascending by hash, and what the rules removed (this rank).
struct Selection {
  std::vector<std::uint32_t> ids;
  std::uint64_t stop_removed = 0;
  std::uint64_t top_removed = 0;
};

// Owner ids over the threshold, not stop items, ascending by hash (owner ids follow the hash order of
// reduce_by_key's results); stop items dropped are added to stop_removed.
std::vector<std::uint32_t> over_threshold(const OwnerTally& owned, const LabelRules& rules,
                                          std::uint64_t& stop_removed) {
  std::vector<std::uint32_t> selected;
  for (std::uint32_t id = 0; id < owned.distinct(); ++id) {
    if (owned.count(id) <= rules.threshold) continue;
    if (rules.is_stop(owned.digest(id), owned.length(id))) {
      ++stop_removed;
    } else {
      selected.push_back(id);
    }
  }
  return selected;
}

// Collective: the --chunk-top/--file-top cut over items ascending by hash, agreed across ranks.
// Keeps the items top_cut keeps, in order; returns how many it removed.
template <class T>
std::uint64_t cut_to_top(comm::Transport& transport, std::vector<T>& items, const std::vector<std::uint64_t>& counts,
                         std::uint64_t top) {
  const std::vector<std::uint8_t> keep = top_cut(transport, counts, top);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (keep[i] == 0) continue;
    if (kept != i) items[kept] = std::move(items[i]);
    ++kept;
  }
  const std::uint64_t removed = items.size() - kept;
  items.resize(kept);
  return removed;
}

// Collective (the top-N cut agrees across ranks).
// The table's tallies over all ranks (each rank passes its own share), and the rules they came from.
// Collective: each value summed over the ranks, saturated at 2^64 − 1 (crd merge's counts may be
// that large). The halves of each value are summed apart, so no partial sum can wrap.
void saturating_sum(comm::Transport& transport, std::span<std::uint64_t> values) {
  constexpr std::uint64_t kLow = 0xffffffffu;
  std::vector<std::uint64_t> halves;
  for (const std::uint64_t v : values) {
    halves.push_back(v >> 32);
    halves.push_back(v & kLow);
  }
  comm::sum(transport, halves);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint64_t high = halves[2 * i] + (halves[2 * i + 1] >> 32);
    values[i] = high > kLow ? kSaturated : (high << 32 | (halves[2 * i + 1] & kLow));
  }
}

void sum_tallies(comm::Transport& transport, const LabelRules& rules, std::uint64_t total, std::uint64_t distinct,
                 std::uint64_t labeled, std::uint64_t stop_removed, std::uint64_t top_removed, LabeledTable& table) {
  std::uint64_t sums[5] = {total, distinct, labeled, stop_removed, top_removed};
  saturating_sum(transport, std::span<std::uint64_t>(sums, 5));
  table.threshold = rules.threshold;
  table.total = sums[0];
  table.distinct = sums[1];
  table.labeled = sums[2];
  table.stop_removed = sums[3];
  table.top = rules.top;
  table.top_removed = sums[4];
}

Selection select_labels(comm::Transport& transport, const OwnerTally& owned, const LabelRules& rules) {
  Selection s;
  s.ids = over_threshold(owned, rules, s.stop_removed);
  std::vector<std::uint64_t> selected_counts;
  selected_counts.reserve(s.ids.size());
  for (std::uint32_t id : s.ids) selected_counts.push_back(owned.count(id));
  s.top_removed = cut_to_top(transport, s.ids, selected_counts, rules.top);
  return s;
}

// Collective: the labeled rows and the global figures and histogram of the owned counts.
void finish_discovery(comm::Transport& transport, const OwnerTally& owned, const Selection& selected,
                      std::vector<Annotation>& notes, const LabelRules& rules, std::size_t round_bytes,
                      TallyDiscovery& out) {
  out.table.rows.reserve(selected.ids.size());
  std::uint64_t total = 0;
  OccurrenceTally occurrences;
  for (const CountRow& r : owned.rows) {
    total = saturating_add(total, r.count);
    occurrences.add(r.count);
  }
  for (std::size_t k = 0; k < selected.ids.size(); ++k) {  // notes are parallel to selected.ids
    const std::uint32_t id = selected.ids[k];
    out.table.rows.push_back({owned.digest(id), owned.count(id), owned.length(id), std::move(notes[k].sample),
                              std::move(notes[k].sample_url)});
  }
  sum_tallies(transport, rules, total, owned.distinct(), selected.ids.size(), selected.stop_removed,
              selected.top_removed, out.table);
  out.histogram = build_histogram(transport, occurrences.take(), round_bytes);
}

}  // namespace

std::vector<LabelRow> sort_by_count(comm::Transport& transport, std::vector<LabelRow> rows, std::size_t round_bytes) {
  return shuffle::sort_across_ranks(
      transport, std::move(rows),
      [](const LabelRow& a, const LabelRow& b) {
        if (a.count != b.count) return a.count > b.count;
        return a.hash < b.hash;
      },
      round_bytes);
}

TallyDiscovery discover_labels(comm::Transport& transport, const LocalTally& local, const PageKeys& keys,
                               const LabelRules& rules, std::size_t round_bytes, ShuffleTotals& totals,
                               bool keep_counts) {
  OwnerTally owned = exchange_counts(transport, local, round_bytes, totals);
  const Selection selected = select_labels(transport, owned, rules);

  TallyDiscovery out;
  out.first_label_id = comm::exscan_sum(transport, selected.ids.size());
  std::vector<std::uint64_t> tags(owned.distinct(), kNotSelected);
  for (std::size_t i = 0; i < selected.ids.size(); ++i) tags[selected.ids[i]] = out.first_label_id + i;

  out.labeled_local = notify_reporters(transport, owned, tags, local, round_bytes, totals);
  std::vector<Annotation> notes =
      gather_annotations(transport, owned, selected.ids, out.labeled_local, local, keys, round_bytes, totals);
  finish_discovery(transport, owned, selected, notes, rules, round_bytes, out);
  if (keep_counts) out.counts = std::move(owned.rows);  // owned is not read after this
  return out;
}

TallyDiscovery label_counts(comm::Transport& transport, const OwnerTally& owned,
                            std::vector<AnnotationRecord> annotations, const LabelRules& rules, std::size_t round_bytes,
                            ShuffleTotals& totals) {
  const Selection selected = select_labels(transport, owned, rules);
  TallyDiscovery out;
  out.first_label_id = comm::exscan_sum(transport, selected.ids.size());
  std::vector<Annotation> notes =
      reduce_annotations(transport, owned, selected.ids, std::move(annotations), round_bytes, totals);
  finish_discovery(transport, owned, selected, notes, rules, round_bytes, out);
  out.counts = owned.rows;
  return out;
}

void count_pass(comm::Transport& transport, const LocalTally& local, const PageKeys& keys, const LabelRules& rules,
                std::size_t round_bytes, ShuffleTotals& totals, PassCandidates& into, bool keep_counts) {
  OwnerTally owned = exchange_counts(transport, local, round_bytes, totals);
  const std::vector<std::uint32_t> selected = over_threshold(owned, rules, into.stop_removed);
  std::vector<std::uint64_t> tags(owned.distinct(), kNotSelected);
  for (std::uint32_t id : selected) tags[id] = 0;
  const auto labeled_local = notify_reporters(transport, owned, tags, local, round_bytes, totals);
  std::vector<Annotation> notes =
      gather_annotations(transport, owned, selected, labeled_local, local, keys, round_bytes, totals);
  for (std::size_t k = 0; k < selected.size(); ++k) {
    const std::uint32_t id = selected[k];
    into.rows.push_back({owned.digest(id), owned.count(id), owned.length(id), std::move(notes[k].sample),
                         std::move(notes[k].sample_url)});
  }
  for (const CountRow& r : owned.rows) into.histogram.add(r.count);
  into.total += local.total();
  into.distinct += owned.distinct();
  if (keep_counts) into.counts.insert(into.counts.end(), owned.rows.begin(), owned.rows.end());
}

TallyDiscovery finish_passes(comm::Transport& transport, PassCandidates candidates, const LabelRules& rules,
                             std::size_t round_bytes) {
  auto& rows = candidates.rows;
  // Each pass's rows ascend by hash, and every pass has the same owner ranges: one sort restores the
  // order discover_labels has, which top_cut and the label ids rely on. The count rows alike: the
  // writer concatenates the ranks' slices, which must come out by hash as in memory.
  std::sort(rows.begin(), rows.end(), [](const LabelRow& a, const LabelRow& b) { return a.hash < b.hash; });
  std::sort(candidates.counts.begin(), candidates.counts.end(),
            [](const CountRow& a, const CountRow& b) { return a.hash < b.hash; });
  std::vector<std::uint64_t> counts;
  counts.reserve(rows.size());
  for (const LabelRow& r : rows) counts.push_back(r.count);
  const std::uint64_t top_removed = cut_to_top(transport, rows, counts, rules.top);

  TallyDiscovery out;
  out.first_label_id = comm::exscan_sum(transport, rows.size());
  sum_tallies(transport, rules, candidates.total, candidates.distinct, rows.size(), candidates.stop_removed,
              top_removed, out.table);
  out.table.rows = std::move(rows);
  out.histogram = build_histogram(transport, candidates.histogram.take(), round_bytes);
  out.counts = std::move(candidates.counts);
  return out;
}

}  // namespace crd::discover
