// The input list of a job, built once and shared by every rank.
#pragma once

#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/counters.hpp"
#include "crd/io/inputs.hpp"

namespace crd::scan {

// Collective: io::expand_inputs(inputs) on every rank, identical for any rank count. Rank 0
// expands the arguments; the directory trees among them are read by all ranks, a level at a time.
// A usage error (no files, a missing input, a bad @LIST) is raised on every rank alike. What was
// left out is logged on the rank that saw it (rank 0 for the inputs named).
std::vector<io::InputFile> expand_everywhere(comm::Transport& transport, const std::vector<std::string>& inputs,
                                             const io::ExpandOptions& options, io::InputLog& log);

// Collective: the files under `root`, each directory read by one rank; on rank 0 all of them (in
// order of their paths), on the other ranks none.
std::vector<io::WalkedEntry> shared_walk(comm::Transport& transport, const std::string& root, io::InputLog& log);

}  // namespace crd::scan
