// The job's --memory per rank (docs/memory.md): the budget, the fixed buffers of the shuffle round
// beside it, and the checks every step of a job makes against it, agreed by all ranks. Built once
// per job (pipeline::MemoryBudget::of_job adds what the scan's tables need) and passed down to every
// step that checks memory, in any module that holds large tables (quilts).
#pragma once

#include <cstdint>
#include <string>

#include "crd/comm/transport.hpp"

namespace crd::shuffle {

class MemoryBudget {
 public:
  // budget 0 = unlimited. round_bytes: the shuffle round (received per round). nranks: the job's.
  MemoryBudget(std::uint64_t budget, std::uint64_t round_bytes, int nranks);

  // Collective, before the scan: the fixed buffers alone must fit (FatalError on every rank).
  void check_fixed() const;

  // Collective: fails on every rank alike (FatalError) if `bytes` (this rank's projected peak of
  // the step `what`, without the fixed buffers) plus the fixed buffers exceeds the budget on any
  // rank; the message names a rank count that would fit.
  void check_peak(comm::Transport& transport, const std::string& what, std::uint64_t bytes) const;

  // Collective: how many slices a step must be cut into so that `kept` (what it holds throughout)
  // plus a slice of `divided` fits the budget on every rank (1 when unlimited). Fails like
  // check_peak when `kept` alone does not fit, or not even kMaxPasses slices do.
  std::uint32_t slices(comm::Transport& transport, std::uint64_t kept, std::uint64_t divided) const;
  static constexpr std::uint32_t kMaxPasses = 1024;

  // The cap on the bytes this rank reads from one result file (output::ResultReader, 0 = unchecked):
  // the budget when the rank keeps what it reads; budget × ranks when it reads every row but keeps
  // only the 1/ranks it owns (a partitioned labeled set), so that the budget bounds what it keeps.
  std::uint64_t read_cap(bool keeps_own_share) const;

  std::uint64_t budget() const { return budget_; }
  std::uint64_t fixed_bytes() const { return 2 * round_bytes_; }

 protected:
  // Ranks at which a peak of `peak` bytes on this many ranks would fit (peaks spread evenly).
  std::uint64_t ranks_for(std::uint64_t peak) const;
  int nranks() const { return nranks_; }

 private:
  std::uint64_t budget_;
  std::uint64_t round_bytes_;
  int nranks_;
};

}  // namespace crd::shuffle
