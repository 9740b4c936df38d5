// crd merge's inputs: discover results with count tables, checked alike and read in slices, each
// rank reading a share of every table.
#pragma once

#include <string>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/comm/transport.hpp"
#include "crd/discover/owner_tally.hpp"
#include "crd/io/read_options.hpp"
#include "crd/output/result_rows.hpp"
#include "memory_budget.hpp"

namespace crd::pipeline {

struct MergeInputs {
  std::string chunking;                                             // the inputs' chunking identity (all equal)
  std::vector<discover::CountRow> chunk_counts, file_counts;        // this rank's slices of the count tables
  std::vector<discover::AnnotationRecord> chunk_notes, file_notes;  // slices of the labeled tables
  std::vector<io::ReadError> errors;                                // slices of /run/errors
  Counters counters;                                                // /run/counters summed over the inputs (every rank)
  std::vector<output::MergeInputRow> sources;                       // what each input holds, in order (every rank)
};

// Collective. Throws UsageError (every rank alike) naming the file for an input that is not a crd
// result, has no count tables (discover ran without --keep-counts) or is chunked unlike the first;
// FatalError (agreed) if a well-formed file cannot be read, declares more rows than it stores, or if
// this rank's share of one holds more than the budget's read_cap (--memory). budget: the job's.
MergeInputs read_merge_inputs(comm::Transport& transport, const std::vector<std::string>& paths,
                              const MemoryBudget& budget);

}  // namespace crd::pipeline
