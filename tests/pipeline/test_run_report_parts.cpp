// PhaseTimer and merge_counters: phase order and durations; counters summed by name across ranks.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "crd/comm/local_transport.hpp"
#include "crd/pipeline/run_report.hpp"

namespace crd::pipeline {
namespace {

TEST(PhaseTimer, PhasesInOrderWithDurations) {
  PhaseTimer timer;
  EXPECT_TRUE(timer.phases().empty());
  timer.stop();  // nothing running: no-op
  EXPECT_TRUE(timer.phases().empty());
  timer.start("read");
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  timer.start("count");  // ends "read"
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  timer.stop();
  timer.stop();  // second stop does not add a phase
  ASSERT_EQ(timer.phases().size(), 2u);
  EXPECT_EQ(timer.phases()[0].first, "read");
  EXPECT_EQ(timer.phases()[1].first, "count");
  EXPECT_GE(timer.seconds("read"), 0.03);
  EXPECT_GE(timer.seconds("count"), 0.01);
  EXPECT_LT(timer.seconds("read"), 5.0);
  EXPECT_EQ(timer.seconds("never"), 0.0);
}

TEST(PhaseTimer, RepeatedPhaseSums) {
  PhaseTimer timer;
  timer.start("x");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  timer.start("y");
  timer.start("x");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  timer.stop();
  ASSERT_EQ(timer.phases().size(), 3u);
  EXPECT_DOUBLE_EQ(timer.seconds("x"), timer.phases()[0].second + timer.phases()[2].second);
  EXPECT_GE(timer.seconds("x"), 0.01);
  for (const auto& [name, s] : timer.phases()) EXPECT_GE(s, 0.0) << name;
}

class MergeCounters : public ::testing::TestWithParam<int> {};

TEST_P(MergeCounters, SumsByNameAcrossDifferentNameSets) {
  const int nranks = GetParam();
  std::vector<Counters> merged(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    Counters local;
    const auto r = static_cast<std::uint64_t>(t.rank());
    local.add("all", r + 1);                            // every rank
    local.add("rank." + std::to_string(r), 10 * r);     // one rank each (0 on rank 0)
    if (r % 2 == 1) local.add("odd", 1);                // some ranks
    if (r == 0) local.add("big", std::uint64_t{1} << 40);
    merged[static_cast<std::size_t>(t.rank())] = merge_counters(t, local);
  });
  const auto n = static_cast<std::uint64_t>(nranks);
  for (const Counters& c : merged) {
    EXPECT_EQ(c.get("all"), n * (n + 1) / 2);
    for (std::uint64_t r = 0; r < n; ++r) EXPECT_EQ(c.get("rank." + std::to_string(r)), 10 * r);
    EXPECT_EQ(c.get("odd"), n / 2);
    EXPECT_EQ(c.get("big"), std::uint64_t{1} << 40);
    EXPECT_EQ(c.values().size(), 2 + n + (n >= 2 ? 1 : 0));
    EXPECT_EQ(c.values(), merged[0].values()) << "identical on every rank";
  }
}

TEST_P(MergeCounters, EmptyEverywhere) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    const Counters merged = merge_counters(t, Counters{});
    EXPECT_TRUE(merged.values().empty());
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, MergeCounters, ::testing::Values(1, 2, 3, 5));

}  // namespace
}  // namespace crd::pipeline
