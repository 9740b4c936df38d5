// Memory projection and the --memory checks.
#include "memory_budget.hpp"

#include <sys/resource.h>

#include <cmath>
#include <sstream>

#include "crd/base/error.hpp"

namespace crd::pipeline {
namespace {

std::string gib(std::uint64_t bytes) {
  std::ostringstream out;
  out.precision(2);
  out << std::fixed << static_cast<double>(bytes) / static_cast<double>(1ull << 30) << " GiB";
  return out.str();
}

}  // namespace

MemoryBudget::MemoryBudget(std::uint64_t budget, std::uint64_t round_bytes, int rank, int nranks)
    : budget_(budget), round_bytes_(round_bytes), rank_(rank), nranks_(nranks) {}

std::uint64_t MemoryBudget::tables_bytes_without_keys(const scan::ScannedShard& shard) {
  return shard.chunks.memory_bytes() + shard.files.memory_bytes() +
         shard.page_chunk_ids.capacity() * sizeof(std::uint32_t) + shard.page_offsets.capacity() * sizeof(std::uint64_t);
}

std::uint64_t MemoryBudget::tables_bytes(const scan::ScannedShard& shard) {
  std::uint64_t keys_bytes = 0;
  for (const auto& k : shard.keys) keys_bytes += key_bytes(k);
  return tables_bytes_without_keys(shard) + keys_bytes;
}

void MemoryBudget::check_fixed() const {
  // The same options everywhere: every rank decides alike, no agreement needed.
  if (budget_ != 0 && fixed_bytes() >= budget_)
    throw FatalError("--memory " + gib(budget_) + " does not even hold the shuffle buffers (2 × --shuffle-buffer = " +
                     gib(fixed_bytes()) + ")");
}

bool MemoryBudget::scan_fits(const scan::ScannedShard& shard, std::uint64_t shard_done, std::uint64_t shard_total,
                             std::uint64_t held) {
  if (budget_ == 0) return true;
  for (; keys_counted_ < shard.keys.size(); ++keys_counted_) keys_bytes_ += key_bytes(shard.keys[keys_counted_]);
  const std::uint64_t tables = tables_bytes_without_keys(shard) + keys_bytes_ + held;
  if (tables + fixed_bytes() <= budget_) return true;
  // Tables grow at most linearly with the bytes read: extrapolate them to the whole shard.
  projected_ = fixed_bytes() + static_cast<std::uint64_t>(static_cast<double>(tables) * static_cast<double>(shard_total) /
                                                          static_cast<double>(std::max<std::uint64_t>(shard_done, 1)));
  return false;
}

void MemoryBudget::check_before_exchange(comm::Transport& transport, const scan::ScannedShard& shard,
                                         std::uint64_t held) const {
  const std::uint64_t stopped = transport.max(projected_);
  if (stopped > 0)
    throw FatalError("--memory " + gib(budget_) + " per rank is too small: the busiest rank's tables would need about " +
                     gib(stopped) + "; run with at least " + std::to_string(ranks_for(stopped)) +
                     " ranks or raise --memory");
  const std::uint64_t local_keys = shard.chunks.distinct() + shard.files.distinct();
  const std::uint64_t all_keys = transport.sum(local_keys);
  // Owned keys ≤ an even share of all local keys (hash prefixes are uniform; duplicates only help).
  const std::uint64_t owned = (all_keys + static_cast<std::uint64_t>(nranks_) - 1) / static_cast<std::uint64_t>(nranks_);
  check_peak(transport, "counting",
             tables_bytes(shard) + held + local_keys * kShuffleBytesPerKey + owned * kOwnerBytesPerKey);
}

void MemoryBudget::check_peak(comm::Transport& transport, const std::string& what, std::uint64_t bytes) const {
  const std::uint64_t worst = transport.max(bytes + fixed_bytes());
  if (budget_ == 0 || worst <= budget_) return;
  throw FatalError("--memory " + gib(budget_) + " per rank is too small: " + what + " needs about " + gib(worst) +
                   " on the busiest rank; run with at least " + std::to_string(ranks_for(worst)) +
                   " ranks or raise --memory");
}

std::uint64_t MemoryBudget::ranks_for(std::uint64_t peak) const {
  return static_cast<std::uint64_t>(
      std::ceil(static_cast<double>(peak) * nranks_ / static_cast<double>(budget_ - fixed_bytes())));
}

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace crd::pipeline
