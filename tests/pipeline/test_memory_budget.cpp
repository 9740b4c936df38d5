// MemoryBudget's checks for what a command holds beside the shard's tables (neardup's sketches,
// bucket entries and pairs): counted while reading, and each later step's peak agreed by all ranks.
#include <gtest/gtest.h>

#include <mutex>
#include <random>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/discover/owner_tally.hpp"
#include "memory_budget.hpp"
#include "support/random_digest.hpp"

namespace crd::pipeline {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

TEST(MemoryBudget, HeldBytesStopTheScanLikeTables) {
  const MemoryBudget budget(1 << 20, 4096, 1);
  ScanMeter meter(budget);
  const scan::ScannedShard shard;
  EXPECT_TRUE(meter.fits(shard, 10, 100, 0));
  EXPECT_FALSE(meter.stopped());
  EXPECT_FALSE(meter.fits(shard, 10, 100, 2 << 20));  // 2 MiB of sketches after a tenth
  EXPECT_TRUE(meter.stopped());
  // Projected to the whole shard (ten times what was read), the fixed buffers and the empty shard's
  // tables (their initial capacity, not extrapolated) on top.
  const std::uint64_t projected = 8192 + MemoryBudget::tables_bytes(shard) + (std::uint64_t{2} << 20) * 10;
  const std::uint64_t ranks = (projected + (1 << 20) - 8192 - 1) / ((1 << 20) - 8192);
  comm::run_local(1, [&](comm::Transport& t) {
    try {
      budget.plan_passes(t, shard, meter, false);
      ADD_FAILURE() << "no error";
    } catch (const FatalError& e) {
      EXPECT_EQ(std::string(e.what()),
                "--memory 1 MiB per rank is too small: the busiest rank's tables would need about " +
                    human_bytes(projected) + "; run with at least " + std::to_string(ranks) +
                    " ranks or raise --memory");
      EXPECT_EQ(human_bytes(projected).substr(human_bytes(projected).size() - 4), " MiB");  // was "0.02 GiB"
    }
  });
}

TEST(MemoryBudget, OneRanksPeakFailsEveryRankWithOneLine) {
  std::mutex m;
  std::vector<std::string> messages;
  comm::run_local(2, [&](comm::Transport& t) {
    const MemoryBudget budget(kGiB, 4096, t.size());
    budget.check_peak(t, "finding candidate pairs", t.rank() == 1 ? kGiB / 2 : 0);  // fits
    try {
      budget.check_peak(t, "finding candidate pairs", t.rank() == 1 ? kGiB * 3 / 2 : 0);
    } catch (const FatalError& e) {
      std::lock_guard lock(m);
      messages.push_back(e.what());
    }
  });
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_EQ(messages[0],
            "--memory 1 GiB per rank is too small: finding candidate pairs needs about 1.50 GiB on the busiest "
            "rank; run with at least 4 ranks or raise --memory");
}

// The smallest --memory at which counting `shard` runs in one pass (plan_passes in memory).
std::uint64_t smallest_one_pass_budget(const scan::ScannedShard& shard, bool keep_counts, std::uint32_t shard_passes) {
  std::uint64_t lo = 1, hi = kGiB;  // lo does not fit, hi does
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    bool fits = true;
    comm::run_local(1, [&](comm::Transport& t) {
      const MemoryBudget budget(mid, 4096, 1);
      try {
        budget.plan_passes(t, shard, ScanMeter(budget), false, 0, keep_counts, shard_passes);
      } catch (const FatalError&) {
        fits = false;
      }
    });
    (fits ? hi : lo) = mid;
  }
  return hi;
}

TEST(MemoryBudget, KeptCountRowsAreCountedForEveryPass) {
  scan::ScannedShard shard;
  shard.keys.push_back("http://example.org/");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) shard.chunks.add(crd::testing::random_digest(rng), 100, "chunk text", 0, shard.keys);
  shard.files.add(crd::testing::random_digest(rng), 5000, "", 0, shard.keys);
  const std::uint64_t owned = shard.chunks.distinct() + shard.files.distinct();  // one rank owns all
  const std::uint64_t plain = smallest_one_pass_budget(shard, false, 1);
  // A count row per owned hash on top: not divided by passes, so passes cannot make room for them.
  EXPECT_EQ(smallest_one_pass_budget(shard, true, 1) - plain, owned * sizeof(discover::CountRow));
  // During a pass the shard holds one pass's hashes; the rows of all passes are kept.
  EXPECT_EQ(smallest_one_pass_budget(shard, true, 3) - plain, 3 * owned * sizeof(discover::CountRow));
  comm::run_local(1, [&](comm::Transport& t) {
    const MemoryBudget budget(plain, 4096, 1);
    const ScanMeter meter(budget);
    EXPECT_EQ(budget.plan_passes(t, shard, meter, true, 0, false), 1u);
    EXPECT_GE(budget.plan_passes(t, shard, meter, true, 0, true), 2u);  // out of core instead
  });
}

// One budget serves the whole job; each scan or pass measures itself with a meter of its own, so a
// pass after a scan that stopped starts afresh, and plans from its own projection.
TEST(MemoryBudget, EachScanHasItsOwnMeterOnTheJobsBudget) {
  const MemoryBudget budget(1 << 20, 4096, 1);
  const scan::ScannedShard shard;
  ScanMeter first(budget);
  EXPECT_FALSE(first.fits(shard, 10, 100, 2 << 20));
  EXPECT_TRUE(first.stopped());
  EXPECT_EQ(first.scale(), 10.0);
  ScanMeter pass(budget);
  EXPECT_FALSE(pass.stopped());
  EXPECT_EQ(pass.projected(), 0u);
  EXPECT_TRUE(pass.fits(shard, 100, 100, 0));
  comm::run_local(1, [&](comm::Transport& t) {
    EXPECT_EQ(budget.plan_passes(t, shard, pass, false), 1u);
    EXPECT_THROW(budget.plan_passes(t, shard, first, false), FatalError);
  });
}

TEST(MemoryBudget, NoBudgetChecksNothing) {
  comm::run_local(2, [&](comm::Transport& t) {
    const MemoryBudget budget(0, 4096, t.size());
    EXPECT_NO_THROW(budget.check_peak(t, "sorting the candidate pairs", 100 * kGiB));
  });
}

// What a rank may read from one result file: the budget when it keeps what it reads; the budget
// times the ranks when it keeps only its share (a partitioned labeled set), saturating; unchecked
// without a budget, and of_job takes the rank count from the job.
TEST(MemoryBudget, ReadCapIsTheBudgetOrItsShareOfAll) {
  const MemoryBudget three(kGiB, 4096, 3);
  EXPECT_EQ(three.read_cap(false), kGiB);
  EXPECT_EQ(three.read_cap(true), 3 * kGiB);
  const MemoryBudget huge(~std::uint64_t{0} / 2 + 1, 4096, 4);
  EXPECT_EQ(huge.read_cap(true), ~std::uint64_t{0});
  const MemoryBudget none(0, 4096, 4);
  EXPECT_EQ(none.read_cap(true), 0u);
  comm::run_local(2, [&](comm::Transport& t) {
    CommonOptions common;
    common.memory_budget = kGiB;
    common.round_bytes = 4096;
    const MemoryBudget job = MemoryBudget::of_job(common, t);
    EXPECT_EQ(job.read_cap(true), 2 * kGiB);
    EXPECT_EQ(job.fixed_bytes(), 8192u);
  });
}

}  // namespace
}  // namespace crd::pipeline
