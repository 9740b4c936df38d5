// The input list of a job, built once and shared by every rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/counters.hpp"
#include "crd/io/inputs.hpp"

namespace crd::scan {

// A rank's share of the job's inputs: files[mine[k]] are the files it reads (io::assign_shards),
// in listing order.
struct InputShare {
  std::vector<io::InputFile> files;  // rank 0: every file of the job, in listing order; others: their own
  std::vector<std::size_t> mine;
  std::uint64_t job_bytes = 0;  // the listed size of every file of the job, on every rank
};

// Collective: io::expand_inputs(inputs), identical for any rank count, divided among the ranks by
// io::assign_shards. Rank 0 expands the arguments; the directory trees among them are read by all
// ranks, a level at a time; each rank then receives only its own files. A usage error (no files,
// a missing input, a bad @LIST) is raised on every rank alike. What was left out is logged on the
// rank that saw it (rank 0 for the inputs named).
InputShare share_inputs(comm::Transport& transport, const std::vector<std::string>& inputs,
                        const io::ExpandOptions& options, io::InputLog& log);

// A directory whose own size is larger than this (about 1,000 entries) is read by every rank, a
// slice of its entries each (io::EntrySlice); smaller ones by one rank each.
inline constexpr std::uint64_t kSplitDirectoryBytes = 32 * 1024;

// Collective: the files under `root`, each directory read by one rank, or by all if it is larger
// than split_bytes (a test can make every directory shared); on rank 0 all of them (in order of
// their paths), on the other ranks none.
std::vector<io::WalkedEntry> shared_walk(comm::Transport& transport, const std::string& root, io::InputLog& log,
                                         std::uint64_t split_bytes = kSplitDirectoryBytes);

}  // namespace crd::scan
