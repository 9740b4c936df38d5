// The job's --memory and its checks (crd/shuffle/memory_budget.hpp).
#include "crd/shuffle/memory_budget.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"
#include "crd/base/saturating.hpp"
#include "crd/comm/collectives.hpp"

namespace crd::shuffle {

MemoryBudget::MemoryBudget(std::uint64_t budget, std::uint64_t round_bytes, int nranks)
    : budget_(budget), round_bytes_(round_bytes), nranks_(nranks) {
  // Under a budget, blocks of 128 KiB and more always come from mmap and go back to the system when
  // freed. glibc otherwise raises that threshold after the first large free, and the tables of one
  // pass (or the stopped first scan) then stay resident as free heap: ~5 MB more peak RSS measured
  // on python3.11-doc at a 4 MB budget.
  //
  // Without a budget, speed wins: blocks up to glibc's largest threshold (32 MiB) come from the heap
  // and freed heap stays with the process. The count exchange allocates and frees ~140 MB of
  // vectors per rank in turn (records, buckets, send and receive buffers, runs, results); fresh
  // pages fault once per 4 KiB (microseconds each on a VM), a large share of a short discover phase,
  // for a few MB of peak RSS (perf/RESULTS.md, section 2).
  if (budget_ != 0) {
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  } else {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  }
}

void MemoryBudget::check_fixed() const {
  // The same options everywhere: every rank decides alike, no agreement needed.
  if (budget_ != 0 && fixed_bytes() >= budget_)
    throw FatalError("--memory " + human_bytes(budget_) +
                     " does not even hold the shuffle buffers (2 × --shuffle-buffer = " + human_bytes(fixed_bytes()) +
                     ")");
}

void MemoryBudget::check_peak(comm::Transport& transport, const std::string& what, std::uint64_t bytes) const {
  const std::uint64_t worst = comm::max(transport, bytes + fixed_bytes());
  if (budget_ == 0 || worst <= budget_) return;
  throw FatalError("--memory " + human_bytes(budget_) + " per rank is too small: " + what + " needs about " +
                   human_bytes(worst) + " on the busiest rank; run with at least " + std::to_string(ranks_for(worst)) +
                   " ranks or raise --memory");
}

std::uint32_t MemoryBudget::slices(comm::Transport& transport, std::uint64_t kept, std::uint64_t divided) const {
  if (budget_ == 0) return 1;
  std::uint64_t n = kMaxPasses + 1;
  if (budget_ > fixed_bytes() + kept) {
    const std::uint64_t room = budget_ - fixed_bytes() - kept;
    n = std::max<std::uint64_t>(1, std::min<std::uint64_t>((divided + room - 1) / room, kMaxPasses + 1));
  }
  n = comm::max(transport, n);
  if (n > kMaxPasses) check_peak(transport, "holding the documents", kept + divided / kMaxPasses);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(n, kMaxPasses));
}

std::uint64_t MemoryBudget::read_cap(bool keeps_own_share) const {
  if (!keeps_own_share || budget_ == 0) return budget_;
  return saturating_mul(budget_, static_cast<std::uint64_t>(nranks_));
}

std::uint64_t MemoryBudget::ranks_for(std::uint64_t peak) const {
  return static_cast<std::uint64_t>(
      std::ceil(static_cast<double>(peak) * nranks_ / static_cast<double>(budget_ - fixed_bytes())));
}

}  // namespace crd::shuffle
