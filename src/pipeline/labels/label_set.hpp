// The labeled set L used by detection, and the join of a rank's chunks with it.
//
// L is partitioned like everything else: each rank owns the labels whose hash it owns (owner_of),
// and label ids are positions in hash order, so a rank's ids form one contiguous range. For the
// join (which of my chunks are labeled?) L is either replicated — every rank holds all hashes and
// looks its chunks up locally, no exchange — or partitioned — chunks are sent to the owners as in
// discovery. Replication is chosen when L is small enough (--join auto).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/detect/detection.hpp"
#include "crd/discover/digest_map.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/discover/owner_tally.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::pipeline {

class MemoryBudget;  // the job's --memory (src/pipeline/memory_budget.hpp)

struct LabelSet {
  detect::LabelSlice owned;  // this rank's labels, by hash
  std::uint64_t total = 0;   // labels over all ranks
  bool replicated = false;
  discover::DigestMap<std::uint64_t> all;  // replicated: every label's hash → id
};

// Bytes a labeled set holds on this rank (--memory): its owned slice and, replicated, the table of
// every label's hash.
std::uint64_t held_bytes(const LabelSet& labels);

// The group of a crd result file that holds a labeled set: /labels (crd label), /discovery/chunks
// (crd discover or run) or /detection/labels. Throws UsageError if there is none, or if its columns
// are not those of a labeled set (check_label_file_shape).
std::string labels_group(const output::ResultReader& reader);

// Throws UsageError (one line) if the labeled group records a chunking identity
// (schema::attr::kLabelChunking, or the count tables' schema::attr::kChunking) other than
// `chunking`, the identity of the run about to use it: hashes of chunks cut another way never
// match, and the run would flag nothing without a word. Files that record none (written before
// crd recorded it) are used as they are.
void check_labels_chunking(const output::ResultReader& reader, const std::string& group, const std::string& chunking);

// Collective. Reads the labeled sets of one or more crd result files (/labels from `crd label`,
// /discovery/chunks from `crd discover` or `crd run`, or /detection/labels), merging duplicates.
// Throws UsageError (every rank alike, agreed) for a file that is not a crd result, has no labels
// or holds a malformed labeled set; FatalError (agreed) if a well-formed file cannot be read, declares
// more rows than it stores, or holds more than the budget's read_cap (--memory).
// budget: the job's.
// chunking: the run's chunking identity; a file chunked otherwise is refused (check_labels_chunking).
LabelSet load_label_set(comm::Transport& transport, const std::vector<std::string>& paths, JoinMode mode,
                        std::uint64_t replicate_max, const MemoryBudget& budget, const std::string& chunking);

// Collective. label_of[local chunk id] = label id or detect::kNoLabel.
std::vector<std::uint64_t> join_labels(comm::Transport& transport, const LabelSet& labels,
                                       const discover::LocalTally& chunks, std::size_t round_bytes,
                                       discover::ShuffleTotals& totals);

}  // namespace crd::pipeline
