// discover_labels: count → select → notify → annotate → sort; label_counts: select → annotate.
#include "crd/discover/discovery.hpp"

#include <algorithm>

#include "top_cut.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"

namespace crd::discover {
namespace {

// The owner ids labeled by the rules, ascending by hash, and what the rules removed (this rank).
struct Selection {
  std::vector<std::uint32_t> ids;
  std::uint64_t stop_removed = 0;
  std::uint64_t top_removed = 0;
};

// Collective (the top-N cut agrees across ranks).
Selection select_labels(comm::Transport& transport, const OwnerTally& owned, const LabelRules& rules) {
  Selection s;
  for (std::uint32_t id = 0; id < owned.distinct(); ++id) {
    if (owned.counts[id] <= rules.threshold) continue;
    if (rules.is_stop(owned.digests[id], owned.lengths[id])) {
      ++s.stop_removed;
    } else {
      s.ids.push_back(id);
    }
  }
  // ids ascend by hash: owner ids follow the hash order of reduce_by_key's results.
  std::vector<std::uint64_t> selected_counts;
  selected_counts.reserve(s.ids.size());
  for (std::uint32_t id : s.ids) selected_counts.push_back(owned.counts[id]);
  const std::vector<std::uint8_t> keep = top_cut(transport, selected_counts, rules.top);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < s.ids.size(); ++i) {
    if (keep[i] != 0) s.ids[kept++] = s.ids[i];
  }
  s.top_removed = s.ids.size() - kept;
  s.ids.resize(kept);
  return s;
}

// Collective: the labeled rows and the global figures and histogram of the owned counts.
void finish_discovery(comm::Transport& transport, const OwnerTally& owned, const Selection& selected,
                      std::vector<Annotation>& notes, const LabelRules& rules, std::size_t round_bytes,
                      TallyDiscovery& out) {
  out.table.rows.reserve(selected.ids.size());
  std::uint64_t total = 0;
  for (std::uint64_t c : owned.counts) total += c;
  for (std::uint32_t id : selected.ids) {
    out.table.rows.push_back({owned.digests[id], owned.counts[id], owned.lengths[id],
                              std::move(notes[id].sample), std::move(notes[id].sample_url)});
  }
  std::uint64_t sums[5] = {total, owned.distinct(), selected.ids.size(), selected.stop_removed,
                           selected.top_removed};
  transport.allreduce(std::span<std::uint64_t>(sums, 5), comm::ReduceOp::Sum);
  out.table.threshold = rules.threshold;
  out.table.total = sums[0];
  out.table.distinct = sums[1];
  out.table.labeled = sums[2];
  out.table.stop_removed = sums[3];
  out.table.top = rules.top;
  out.table.top_removed = sums[4];
  out.histogram = build_histogram(transport, owned.counts, round_bytes);
}

}  // namespace

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

TallyDiscovery discover_labels(comm::Transport& transport, const LocalTally& local,
                               const PageKeys& keys, const LabelRules& rules,
                               std::size_t round_bytes, ShuffleTotals& totals, bool keep_counts) {
  OwnerTally owned = exchange_counts(transport, local, round_bytes, totals);
  const Selection selected = select_labels(transport, owned, rules);

  TallyDiscovery out;
  out.first_label_id = transport.exscan_sum(selected.ids.size());
  std::vector<std::uint64_t> tags(owned.distinct(), kNotSelected);
  for (std::size_t i = 0; i < selected.ids.size(); ++i) tags[selected.ids[i]] = out.first_label_id + i;

  out.labeled_local = notify_reporters(transport, owned, tags, local, round_bytes, totals);
  std::vector<Annotation> notes =
      gather_annotations(transport, owned, out.labeled_local, local, keys, round_bytes, totals);
  finish_discovery(transport, owned, selected, notes, rules, round_bytes, out);
  if (keep_counts) out.counts = count_rows(owned);
  return out;
}

TallyDiscovery label_counts(comm::Transport& transport, const OwnerTally& owned,
                            std::vector<AnnotationRecord> annotations, const LabelRules& rules,
                            std::size_t round_bytes, ShuffleTotals& totals) {
  const Selection selected = select_labels(transport, owned, rules);
  TallyDiscovery out;
  out.first_label_id = transport.exscan_sum(selected.ids.size());
  std::vector<Annotation> notes = reduce_annotations(transport, owned, std::move(annotations), round_bytes, totals);
  finish_discovery(transport, owned, selected, notes, rules, round_bytes, out);
  out.counts = count_rows(owned);
  return out;
}

}  // namespace crd::discover
