// The per-rank memory model and the --memory budget (docs/memory.md).
//
// A rank's memory is dominated by its tables: the local tally of distinct hashes it read
// (kLocalBytesPerKey + the sample), the owner tally of hashes it owns after the count exchange
// (kOwnerBytesPerKey), the outgoing shuffle records (kShuffleBytesPerKey per local key), and, for
// detect/run, each page's key and chunk-id vector. Fixed buffers (the shuffle round, I/O) come on top.
#pragma once

#include <cstdint>
#include <string>

#include "crd/comm/transport.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/scan/corpus_scan.hpp"
#include "crd/shuffle/memory_budget.hpp"

namespace crd::pipeline {

inline constexpr std::uint64_t kLocalBytesPerKey = 66;    // 8-byte index slot at ≥ 7/16 load + columns
inline constexpr std::uint64_t kOwnerBytesPerKey = 96;    // map slot + columns + report index
inline constexpr std::uint64_t kShuffleBytesPerKey = 40;  // a sorted count record, sent as it lies

class ScanMeter;

// The job's budget on this rank (shuffle::MemoryBudget: --memory and --shuffle-buffer, fixed for
// the whole job) with what the scan's tables need. Built once per job, where its pipeline starts
// (of_job), and passed down to every step that checks memory.
class MemoryBudget : public shuffle::MemoryBudget {
 public:
  using shuffle::MemoryBudget::MemoryBudget;
  static MemoryBudget of_job(const CommonOptions& common, const comm::Transport& transport) {
    return MemoryBudget(common.memory_budget, common.round_bytes, transport.size());
  }

  // Collective, after the scan `meter` measured: 1 if the projected peak of the count exchange
  // (tables, outgoing records, an even share of the owned keys, buffers) fits the budget on every
  // rank. Otherwise,
  // with out_of_core, the number of passes over the hash space whose tables fit (every rank
  // alike); without it, or when not even kMaxPasses passes fit (the page keys and vectors, which
  // passes do not divide, fill the budget), FatalError on every rank naming a rank count that fits.
  // held: bytes the command keeps beside the tables (neardup's sketches); passes do not divide them.
  // keep_counts (discover --keep-counts): the result keeps a count row per owned hash, for every
  // pass; `shard_passes` is the number of passes the shard's hashes are one of (1: the whole space).
  std::uint32_t plan_passes(comm::Transport& transport, const scan::ScannedShard& shard, const ScanMeter& meter,
                            bool out_of_core, std::uint64_t held = 0, bool keep_counts = false,
                            std::uint32_t shard_passes = 1) const;

  // Collective, before the scan: fails on every rank alike (FatalError) if `bytes`, which the
  // command holds beside its tables whatever the rank count (a replicated table: detect's labeled
  // set and --pairs' documents), leaves no room for a scan's empty tables beside the fixed buffers on
  // some rank; the message names the memory that would (more ranks would not help).
  void check_held(comm::Transport& transport, const std::string& what, std::uint64_t bytes) const;

  static std::uint64_t tables_bytes(const scan::ScannedShard& shard);
  static std::uint64_t tables_bytes_without_keys(const scan::ScannedShard& shard);
  static std::uint64_t key_bytes(const std::string& key) { return sizeof(std::string) + key.capacity(); }
};

// One scan (or one pass of it) under the job's budget: a fresh meter per scan.
class ScanMeter {
 public:
  explicit ScanMeter(const MemoryBudget& budget) : budget_(budget) {}

  // Local, after each input file of the scan: false once this rank's tables exceed the budget, so
  // the rank stops reading (its memory stops growing) and remembers a projection for the whole
  // shard. shard_done/shard_total: bytes of this rank's shard.
  // held: bytes the command keeps beside the shard's tables (neardup's sketches), counted alike.
  bool fits(const scan::ScannedShard& shard, std::uint64_t shard_done, std::uint64_t shard_total,
            std::uint64_t held = 0);
  // True once fits said no: the shard is incomplete and must not be checkpointed.
  bool stopped() const { return projected_ > 0; }
  std::uint64_t projected() const { return projected_; }
  double scale() const { return scale_; }

 private:
  const MemoryBudget& budget_;
  // Page keys counted so far by fits: it runs after every file, and summing all keys each time
  // made the scan quadratic in the page count. Keys never change once added.
  std::size_t keys_counted_ = 0;
  std::uint64_t keys_bytes_ = 0;
  std::uint64_t projected_ = 0;  // whole-shard projection when the scan stopped, else 0
  double scale_ = 1;             // whole shard / bytes read when the scan stopped
};

// Peak resident set size of this process so far (getrusage).
std::uint64_t peak_rss_bytes();

}  // namespace crd::pipeline
