// run_local: the collectives are real (1..5 thread ranks), and a failing rank never hangs the rest.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "crd/comm/collectives.hpp"
#include "crd/comm/local_transport.hpp"
#include "transport_checks.hpp"

namespace crd::comm {
namespace {

class LocalTransportTest : public ::testing::TestWithParam<int> {};

TEST_P(LocalTransportTest, AlltoallvDeliversEveryPair) {
  run_local(GetParam(), [](Transport& t) { testing::check_alltoallv(t); });
}

TEST_P(LocalTransportTest, AllgathervConcatenatesInRankOrder) {
  run_local(GetParam(), [](Transport& t) { testing::check_allgatherv(t); });
}

TEST_P(LocalTransportTest, ReductionsAndExscan) {
  run_local(GetParam(), [](Transport& t) { testing::check_reductions(t); });
}

TEST_P(LocalTransportTest, ManyCollectivesInSequence) {
  run_local(GetParam(), [](Transport& t) {
    for (int i = 0; i < 200; ++i) {
      EXPECT_EQ(comm::sum(t, static_cast<std::uint64_t>(i)), static_cast<std::uint64_t>(i * t.size()));
      if (i % 50 == 0) testing::check_alltoallv(t);
    }
  });
}

TEST_P(LocalTransportTest, ThrowingRankReleasesOthersAndItsErrorIsRethrown) {
  const int n = GetParam();
  const int bad = n - 1;
  std::atomic<int> released{0};
  try {
    run_local(n, [&](Transport& t) {
      t.barrier();
      if (t.rank() == bad) throw std::runtime_error("boom from the bad rank");
      try {
        t.barrier();
        comm::sum(t, 1);
      } catch (const PeerFailed&) {
        ++released;
        throw;
      }
    });
    FAIL() << "run_local did not throw";
  } catch (const PeerFailed&) {
    FAIL() << "PeerFailed rethrown instead of the original error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "boom from the bad rank");
  }
  EXPECT_EQ(released.load(), n - 1);
}

TEST_P(LocalTransportTest, LowestRankOriginalErrorWins) {
  const int n = GetParam();
  try {
    run_local(n, [&](Transport& t) {
      if (t.rank() >= n / 2) throw std::runtime_error("rank " + std::to_string(t.rank()));
      t.barrier();
    });
    FAIL() << "run_local did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "rank " + std::to_string(n / 2));
  }
}

TEST_P(LocalTransportTest, RankLeavingEarlyDoesNotHangOthers) {
  const int n = GetParam();
  if (n == 1) GTEST_SKIP() << "needs a peer";
  // Rank 0 skips the last collective: the others must be told, not wait forever.
  EXPECT_THROW(run_local(n,
                         [](Transport& t) {
                           t.barrier();
                           if (t.rank() != 0) t.barrier();
                         }),
               PeerFailed);
}

INSTANTIATE_TEST_SUITE_P(Ranks, LocalTransportTest, ::testing::Values(1, 2, 3, 4, 5));

TEST(LocalTransport, MismatchedCountsAreRejected) {
  EXPECT_THROW(run_local(2,
                         [](Transport& t) {
                           std::vector<std::byte> send(3);
                           std::vector<std::uint64_t> counts{1, 1};  // sums to 2, not 3
                           std::vector<std::byte> recv;
                           std::vector<std::uint64_t> rc;
                           t.alltoallv(send, counts, recv, rc);
                         }),
               std::invalid_argument);
  EXPECT_THROW(run_local(0, [](Transport&) {}), std::invalid_argument);
}

}  // namespace
}  // namespace crd::comm
