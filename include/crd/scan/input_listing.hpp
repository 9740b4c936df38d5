// The input list of a job, built once and shared by every rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/counters.hpp"
#include "crd/io/inputs.hpp"

namespace crd::scan {

// A rank's share of the job's inputs: files[mine[k]] are the files it reads, in listing order.
struct InputShare {
  std::vector<io::InputFile> files;  // rank 0 of a gathered listing: every file of the job; else the rank's own
  std::vector<std::size_t> mine;
  std::uint64_t job_bytes = 0;  // the listed size of every file of the job, on every rank
};

// Collective: io::expand_inputs(inputs), divided among the ranks. Which files a job reads is the
// same for any rank count; which rank reads which is not, and changes no result.
//  - One directory named alone (and !rank0_lists_all): listed where it is walked. Each rank deals
//    the files of its part of the walk among all ranks, largest scan weight first (io::scan_weight:
//    a gzip archive's bytes weigh more), in snake order, so each rank holds about 1/n of the files
//    and of the work; rank 0 never holds the whole list.
//  - Otherwise (several inputs, @LIST files, or rank0_lists_all: a checkpointed job fingerprints
//    every file on rank 0): rank 0 expands the arguments, the directory trees among them are read
//    by all ranks, a level at a time, and gathered on rank 0, which divides them by
//    io::assign_shards; each rank then receives only its own files.
// A usage error (no files, a missing input, a bad @LIST) is raised on every rank alike. What was
// left out is logged on the rank that saw it (rank 0 for the inputs named).
InputShare share_inputs(comm::Transport& transport, const std::vector<std::string>& inputs,
                        const io::ExpandOptions& options, io::InputLog& log, bool rank0_lists_all = false);

// A directory whose own size is larger than this (about 1,000 entries) is read by every rank, a
// slice of its entries each (io::EntrySlice); smaller ones by one rank each.
inline constexpr std::uint64_t kSplitDirectoryBytes = 32 * 1024;

// Collective: the files under `root`, each directory read by one rank, or by all if it is larger
// than split_bytes (a test can make every directory shared); on rank 0 all of them (in order of
// their paths), on the other ranks none.
std::vector<io::WalkedEntry> shared_walk(comm::Transport& transport, const std::string& root, io::InputLog& log,
                                         std::uint64_t split_bytes = kSplitDirectoryBytes);

}  // namespace crd::scan
