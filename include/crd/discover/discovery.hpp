// Blind discovery over one kind of item (chunks or files): global counts on owner ranks, the
// labeled set L (paper §4.2), its annotations, and the frequency histogram. Plain C++ over a
// Transport: unit-tested with the in-process transport.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/discover/histogram.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/discover/owner_tally.hpp"
#include "crd/base/fields.hpp"

namespace crd::discover {

struct LabelRow {
  Digest hash;
  std::uint64_t count = 0;
  std::uint64_t length = 0;
  std::string sample;
  std::string sample_url;
  // Wire, checkpoint and the labeled tables' columns (/discovery/chunks, /discovery/files, /labels).
  static constexpr auto fields() {
    return std::tuple(field("hash", &LabelRow::hash), field("count", &LabelRow::count),
                      field("length", &LabelRow::length), field("sample", &LabelRow::sample),
                      field("sample_url", &LabelRow::sample_url));
  }
};

struct LabeledTable {
  // This rank's slice. From discover_labels: the labels this rank owns, by hash (rank order is
  // hash order, as owner_of is monotone in the leading bits); sort_by_count reorders for output.
  std::vector<LabelRow> rows;
  std::uint64_t threshold = 0;
  std::uint64_t total = 0;          // occurrences counted, all ranks
  std::uint64_t distinct = 0;       // distinct items, all ranks
  std::uint64_t labeled = 0;        // rows, all ranks
  std::uint64_t stop_removed = 0;   // distinct items over the threshold dropped as stop items
  std::uint64_t top = 0;            // the --chunk-top / --file-top limit (0 = none)
  std::uint64_t top_removed = 0;    // items passing threshold and stop rules but cut by `top`
};

struct TallyDiscovery {
  LabeledTable table;
  std::uint64_t first_label_id = 0;          // global id of table.rows[0] (ids in hash order)
  std::vector<HistogramRow> histogram;       // this rank's slice, ascending
  std::vector<TaggedId> labeled_local;       // local ids (in the LocalTally) labeled, with label ids
  std::vector<CountRow> counts;              // every hash this rank owns, by hash, if kept (--keep-counts)
};

// Collective. keep_counts: also return every owned hash's count (TallyDiscovery::counts).
TallyDiscovery discover_labels(comm::Transport& transport, const LocalTally& local,
                               const PageKeys& keys, const LabelRules& rules,
                               std::size_t round_bytes, ShuffleTotals& totals, bool keep_counts = false);

// Collective: the same labels, annotations and histogram from global counts already on their owners
// (crd merge). annotations: any rank's known (hash, sample_url, sample), the smallest key kept per
// hash; a label none of them names keeps an empty sample and sample_url. Counts are always kept.
TallyDiscovery label_counts(comm::Transport& transport, const OwnerTally& owned,
                            std::vector<AnnotationRecord> annotations, const LabelRules& rules,
                            std::size_t round_bytes, ShuffleTotals& totals);

// Out-of-core counting (docs/memory.md) runs discover_labels in passes over slices of the hash
// space: each pass adds its candidates (over the threshold, not stop items, annotated; the top cut
// needs all passes), and finish_passes then does what discover_labels does after counting. The
// result equals discover_labels' (with keep_counts, its counts too) except labeled_local, which stays
// empty (the pass tallies are gone).
struct PassCandidates {
  std::vector<LabelRow> rows;                        // this rank's owned candidates, all passes
  OccurrenceTally histogram;                         // owned items: occurrences → distinct items
  std::uint64_t total = 0;                           // this rank's local occurrences, all passes
  std::uint64_t distinct = 0;                        // owned distinct items
  std::uint64_t stop_removed = 0;
  std::vector<CountRow> counts;                      // every owned hash, all passes (keep_counts)
};

// Collective: counts one pass's local tally and adds it to `into`. keep_counts: also every owned
// hash's count, which finish_passes returns by hash as discover_labels does (TallyDiscovery::counts).
void count_pass(comm::Transport& transport, const LocalTally& local, const PageKeys& keys, const LabelRules& rules,
                std::size_t round_bytes, ShuffleTotals& totals, PassCandidates& into, bool keep_counts = false);

// Collective, after the last pass.
TallyDiscovery finish_passes(comm::Transport& transport, PassCandidates candidates, const LabelRules& rules,
                             std::size_t round_bytes);

// Orders label rows for output: count descending, then hash ascending (collective).
std::vector<LabelRow> sort_by_count(comm::Transport& transport, std::vector<LabelRow> rows,
                                    std::size_t round_bytes);

}  // namespace crd::discover
