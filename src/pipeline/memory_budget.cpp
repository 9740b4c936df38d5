// Memory projection and the --memory checks.
#include "memory_budget.hpp"

#include <sys/resource.h>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/discover/owner_tally.hpp"

namespace crd::pipeline {
namespace {

// The hash tables of an empty shard: their initial capacity, which every scan and pass has however
// little it reads. Projections extrapolate only what grew beyond it.
std::uint64_t empty_hash_tables() {
  static const std::uint64_t bytes = [] {
    const scan::ScannedShard empty;
    return static_cast<std::uint64_t>(empty.chunks.memory_bytes() + empty.files.memory_bytes());
  }();
  return bytes;
}

}  // namespace

std::uint64_t MemoryBudget::tables_bytes_without_keys(const scan::ScannedShard& shard) {
  return shard.chunks.memory_bytes() + shard.files.memory_bytes() +
         shard.page_chunk_ids.capacity() * sizeof(std::uint32_t) +
         shard.page_offsets.capacity() * sizeof(std::uint64_t);
}

std::uint64_t MemoryBudget::tables_bytes(const scan::ScannedShard& shard) {
  std::uint64_t keys_bytes = 0;
  for (const auto& k : shard.keys) keys_bytes += key_bytes(k);
  return tables_bytes_without_keys(shard) + keys_bytes;
}

bool ScanMeter::fits(const scan::ScannedShard& shard, std::uint64_t shard_done, std::uint64_t shard_total,
                     std::uint64_t held) {
  if (budget_.budget() == 0) return true;
  for (; keys_counted_ < shard.keys.size(); ++keys_counted_)
    keys_bytes_ += MemoryBudget::key_bytes(shard.keys[keys_counted_]);
  const std::uint64_t tables = MemoryBudget::tables_bytes_without_keys(shard) + keys_bytes_ + held;
  if (tables + budget_.fixed_bytes() <= budget_.budget()) return true;
  // Tables grow at most linearly with the bytes read: extrapolate them to the whole shard.
  scale_ = static_cast<double>(shard_total) / static_cast<double>(std::max<std::uint64_t>(shard_done, 1));
  const std::uint64_t base = std::min(tables, empty_hash_tables());
  projected_ = budget_.fixed_bytes() + base + static_cast<std::uint64_t>(static_cast<double>(tables - base) * scale_);
  return false;
}

std::uint32_t MemoryBudget::plan_passes(comm::Transport& transport, const scan::ScannedShard& shard,
                                        const ScanMeter& meter, bool out_of_core, std::uint64_t held, bool keep_counts,
                                        std::uint32_t shard_passes) const {
  const double scale = meter.scale();
  const std::uint64_t projected = meter.projected();
  const auto scaled = [&](std::uint64_t bytes) {
    return static_cast<std::uint64_t>(static_cast<double>(bytes) * scale);
  };
  const std::uint64_t local_keys = scaled(shard.chunks.distinct() + shard.files.distinct());
  const std::uint64_t hash_tables = shard.chunks.memory_bytes() + shard.files.memory_bytes();
  const std::uint64_t base = std::min(hash_tables, empty_hash_tables());
  const std::uint64_t all_keys = comm::sum(transport, local_keys);
  // Owned keys ≤ an even share of all local keys (hash prefixes are uniform; duplicates only help).
  const std::uint64_t owned =
      (all_keys + static_cast<std::uint64_t>(nranks()) - 1) / static_cast<std::uint64_t>(nranks());
  // What passes divide (the hash tables and exchange records), and what they do not (page keys and
  // page chunk vectors, read again in full by every pass; --keep-counts' rows, which every pass adds
  // to the result for its owned hashes).
  const std::uint64_t grown = scaled(hash_tables - base) + local_keys * kShuffleBytesPerKey + owned * kOwnerBytesPerKey;
  const std::uint64_t count_rows = keep_counts ? owned * shard_passes * sizeof(discover::CountRow) : 0;
  const std::uint64_t pages = scaled(tables_bytes(shard) - hash_tables) + held + count_rows;
  const std::uint64_t hashed = base + grown;
  const std::uint64_t mine = hashed + pages + fixed_bytes();
  const std::uint64_t worst = comm::max(transport, std::max(mine, projected));
  if (budget() == 0 || worst <= budget()) return 1;
  // Every pass has the empty tables; what grew beyond them divides by the passes.
  std::uint64_t passes = kMaxPasses + 1;
  if (budget() > fixed_bytes() + pages + empty_hash_tables()) {
    const std::uint64_t room = budget() - fixed_bytes() - pages - empty_hash_tables();
    passes = std::min<std::uint64_t>((grown + room - 1) / room, kMaxPasses + 1);
  }
  passes = comm::max(transport, passes);
  if (out_of_core && passes <= kMaxPasses) return static_cast<std::uint32_t>(std::max<std::uint64_t>(passes, 2));
  const std::uint64_t ranks = ranks_for(worst);
  if (comm::max(transport, projected) > 0)
    throw FatalError("--memory " + human_bytes(budget()) +
                     " per rank is too small: the busiest rank's tables would need about " + human_bytes(worst) +
                     "; run with at least " + std::to_string(ranks) + " ranks or raise --memory");
  throw FatalError("--memory " + human_bytes(budget()) + " per rank is too small: counting needs about " +
                   human_bytes(worst) + " on the busiest rank; run with at least " + std::to_string(ranks) +
                   " ranks or raise --memory");
}

void MemoryBudget::check_held(comm::Transport& transport, const std::string& what, std::uint64_t bytes) const {
  const std::uint64_t least = comm::max(transport, bytes) + fixed_bytes() + empty_hash_tables();
  if (budget() == 0 || least <= budget()) return;
  throw FatalError("--memory " + human_bytes(budget()) + " per rank is too small: " + what + " need about " +
                   human_bytes(comm::max(transport, bytes)) +
                   " on every rank, whatever the rank count; raise --memory above " + human_bytes(least));
}

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace crd::pipeline
