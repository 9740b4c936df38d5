// discover_labels: count → select → notify → annotate → sort.
#include "crd/discover/discovery.hpp"

#include <algorithm>

#include "top_cut.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"

namespace crd::discover {

std::vector<LabelRow> sort_by_count(comm::Transport& transport, std::vector<LabelRow> rows,
                                    std::size_t round_bytes) {
  return shuffle::sort_across_ranks(
      transport, std::move(rows),
      [](const LabelRow& a, const LabelRow& b) {
        if (a.count != b.count) return a.count > b.count;
        return a.hash < b.hash;
      },
      round_bytes);
}

namespace {

// Owner ids over the threshold, not stop items, ascending by hash.
std::vector<std::uint32_t> over_threshold(const OwnerTally& owned, const LabelRules& rules, std::uint64_t& stop_removed) {
  std::vector<std::uint32_t> selected;
  for (std::uint32_t id = 0; id < owned.distinct(); ++id) {
    if (owned.counts[id] <= rules.threshold) continue;
    if (rules.is_stop(owned.digests[id], owned.lengths[id])) {
      ++stop_removed;
    } else {
      selected.push_back(id);
    }
  }
  return selected;
}

}  // namespace

TallyDiscovery discover_labels(comm::Transport& transport, const LocalTally& local,
                               const PageKeys& keys, const LabelRules& rules,
                               std::size_t round_bytes, ShuffleTotals& totals) {
  OwnerTally owned = exchange_counts(transport, local, round_bytes, totals);

  std::uint64_t stop_removed = 0;
  std::vector<std::uint32_t> selected = over_threshold(owned, rules, stop_removed);
  // selected ascends by hash: owner ids follow the hash order of reduce_by_key's results.
  std::vector<std::uint64_t> selected_counts;
  selected_counts.reserve(selected.size());
  for (std::uint32_t id : selected) selected_counts.push_back(owned.counts[id]);
  const std::vector<std::uint8_t> keep = top_cut(transport, selected_counts, rules.top);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    if (keep[i] != 0) selected[kept++] = selected[i];
  }
  const std::uint64_t top_removed = selected.size() - kept;
  selected.resize(kept);

  TallyDiscovery out;
  out.first_label_id = transport.exscan_sum(selected.size());
  std::vector<std::uint64_t> tags(owned.distinct(), kNotSelected);
  for (std::size_t i = 0; i < selected.size(); ++i) tags[selected[i]] = out.first_label_id + i;

  out.labeled_local = notify_reporters(transport, owned, tags, local, round_bytes, totals);
  std::vector<Annotation> notes =
      gather_annotations(transport, owned, out.labeled_local, local, keys, round_bytes, totals);

  out.table.rows.reserve(selected.size());
  for (std::uint32_t id : selected) {
    out.table.rows.push_back({owned.digests[id], owned.counts[id], owned.lengths[id],
                              std::move(notes[id].sample), std::move(notes[id].sample_url)});
  }

  std::uint64_t sums[5] = {local.total(), owned.distinct(), selected.size(), stop_removed, top_removed};
  transport.allreduce(std::span<std::uint64_t>(sums, 5), comm::ReduceOp::Sum);
  out.table.threshold = rules.threshold;
  out.table.total = sums[0];
  out.table.distinct = sums[1];
  out.table.labeled = sums[2];
  out.table.stop_removed = sums[3];
  out.table.top = rules.top;
  out.table.top_removed = sums[4];
  out.histogram = build_histogram(transport, owned.counts, round_bytes);
  return out;
}

void count_pass(comm::Transport& transport, const LocalTally& local, const PageKeys& keys, const LabelRules& rules,
                std::size_t round_bytes, ShuffleTotals& totals, PassCandidates& into) {
  OwnerTally owned = exchange_counts(transport, local, round_bytes, totals);
  const std::vector<std::uint32_t> selected = over_threshold(owned, rules, into.stop_removed);
  std::vector<std::uint64_t> tags(owned.distinct(), kNotSelected);
  for (std::uint32_t id : selected) tags[id] = 0;
  const auto labeled_local = notify_reporters(transport, owned, tags, local, round_bytes, totals);
  std::vector<Annotation> notes = gather_annotations(transport, owned, labeled_local, local, keys, round_bytes, totals);
  for (std::uint32_t id : selected) {
    into.rows.push_back({owned.digests[id], owned.counts[id], owned.lengths[id], std::move(notes[id].sample),
                         std::move(notes[id].sample_url)});
  }
  for (const std::uint64_t c : owned.counts) ++into.histogram[c];
  into.total += local.total();
  into.distinct += owned.distinct();
}

TallyDiscovery finish_passes(comm::Transport& transport, PassCandidates candidates, const LabelRules& rules,
                             std::size_t round_bytes) {
  auto& rows = candidates.rows;
  // Each pass's rows ascend by hash, and every pass has the same owner ranges: one sort restores the
  // order discover_labels has, which top_cut and the label ids rely on.
  std::sort(rows.begin(), rows.end(), [](const LabelRow& a, const LabelRow& b) { return a.hash < b.hash; });
  std::vector<std::uint64_t> counts;
  counts.reserve(rows.size());
  for (const LabelRow& r : rows) counts.push_back(r.count);
  const std::vector<std::uint8_t> keep = top_cut(transport, counts, rules.top);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (keep[i] == 0) continue;
    if (kept != i) rows[kept] = std::move(rows[i]);
    ++kept;
  }
  const std::uint64_t top_removed = rows.size() - kept;
  rows.resize(kept);

  TallyDiscovery out;
  out.first_label_id = transport.exscan_sum(rows.size());
  std::uint64_t sums[5] = {candidates.total, candidates.distinct, rows.size(), candidates.stop_removed, top_removed};
  transport.allreduce(std::span<std::uint64_t>(sums, 5), comm::ReduceOp::Sum);
  out.table.rows = std::move(rows);
  out.table.threshold = rules.threshold;
  out.table.total = sums[0];
  out.table.distinct = sums[1];
  out.table.labeled = sums[2];
  out.table.stop_removed = sums[3];
  out.table.top = rules.top;
  out.table.top_removed = sums[4];
  out.histogram = build_histogram(transport, candidates.histogram, round_bytes);
  return out;
}

}  // namespace crd::discover
