// The --memory checks (src/pipeline/memory_budget.hpp, docs/memory.md) for commands outside the
// pipeline module (compare-hashing): the same lines, the same agreement across ranks.
#pragma once

#include <cstdint>
#include <string>

#include "crd/comm/transport.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/scan/corpus_scan.hpp"

namespace crd::pipeline {

// Collective: MemoryBudget::check_peak under common's --memory and --shuffle-buffer. Fails on
// every rank alike (FatalError) if `bytes`, this rank's peak of the step `what`, does not fit
// beside the shuffle round on some rank; the line names a rank count that would fit.
void check_memory_peak(comm::Transport& transport, const CommonOptions& common, const std::string& what,
                       std::uint64_t bytes);

// Collective: MemoryBudget::check_held — `bytes` held on every rank whatever the rank count (a
// replicated table); the line names the memory that would fit.
void check_memory_held(comm::Transport& transport, const CommonOptions& common, const std::string& what,
                       std::uint64_t bytes);

// MemoryBudget::tables_bytes: what the shard's tables hold, as --memory counts them.
std::uint64_t memory_tables_bytes(const scan::ScannedShard& shard);

}  // namespace crd::pipeline
