// exchange() and sort_across_ranks on the thread transport, 1..5 ranks.
#include <gtest/gtest.h>

#include <cstring>

#include "crd/comm/local_transport.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "exchange_checks.hpp"
#include "sort_checks.hpp"

namespace crd::shuffle {
namespace {

class ShuffleTest : public ::testing::TestWithParam<int> {};

TEST_P(ShuffleTest, OneBigRound) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_exchange(t, 2000, 1 << 24, false); });
}

TEST_P(ShuffleTest, TinyRoundsStillDeliverEverythingInOrder) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_exchange(t, 700, 64, false); });
}

TEST_P(ShuffleTest, RoundBudgetSmallerThanOneRecord) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_exchange(t, 300, 1, false); });
}

TEST_P(ShuffleTest, OnlyRankZeroHasRecords) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_exchange(t, 500, 100, true); });
}

TEST_P(ShuffleTest, NothingToSend) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_exchange(t, 0, 64, false); });
}

// Records of one fixed size travel unframed: the same invariants, with a budget of many records,
// of a few (not a whole number of them), and of less than one.
TEST_P(ShuffleTest, FixedSizeRecordsInAnyBudget) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    testing::check_exchange(t, 2000, 1 << 24, false, true);
    testing::check_exchange(t, 700, 100, false, true);
    testing::check_exchange(t, 300, 1, false, true);
    testing::check_exchange(t, 500, 90, true, true);
    testing::check_exchange(t, 0, 64, false, true);
  });
}

// Fixed-size records written a block at a time and received a source's run at a time
// (exchange_fixed): the same records, order and rounds as one by one.
TEST_P(ShuffleTest, FixedSizeRecordsInWholeRuns) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    testing::check_exchange(t, 2000, 1 << 24, false, true, true);
    testing::check_exchange(t, 700, 100, false, true, true);
    testing::check_exchange(t, 300, 1, false, true, true);
    testing::check_exchange(t, 500, 90, true, true, true);
    testing::check_exchange(t, 0, 64, false, true, true);
  });
}

// Fixed-size records sent from where they lie, one array per destination (exchange_in_place):
// the same records, order and rounds.
TEST_P(ShuffleTest, FixedSizeRecordsSentInPlace) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    testing::check_exchange(t, 2000, 1 << 24, false, true, true, true);
    testing::check_exchange(t, 700, 100, false, true, true, true);
    testing::check_exchange(t, 300, 1, false, true, true, true);
    testing::check_exchange(t, 500, 90, true, true, true, true);
    testing::check_exchange(t, 0, 64, false, true, true, true);
  });
}

// exchange_in_place takes whole records only.
TEST(ExchangeInPlace, RejectsPartialRecordsAndEmptyRecordSize) {
  const std::vector<std::byte> bytes(30);
  const std::vector<std::span<const std::byte>> partial{std::span<const std::byte>(bytes)};
  EXPECT_THROW(comm::run_local(1, [&](comm::Transport& t) { exchange_in_place(t, partial, 28, 64, [](int, auto) {}); }),
               std::invalid_argument);
  EXPECT_THROW(comm::run_local(1, [&](comm::Transport& t) { exchange_in_place(t, partial, 0, 64, [](int, auto) {}); }),
               std::invalid_argument);
  const std::vector<std::span<const std::byte>> two_ranks(2);
  EXPECT_THROW(comm::run_local(1, [&](comm::Transport& t) { exchange_in_place(t, two_ranks, 28, 64, [](int, auto) {}); }),
               std::invalid_argument);
}

TEST_P(ShuffleTest, RoundCountFollowsBudget) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    // 100 records of 1000 bytes to rank 0 from every rank, 4000-byte rounds: about 25 rounds.
    Buckets b(t.size());
    std::vector<std::byte> rec(1000, std::byte{0x5a});
    for (int i = 0; i < 100; ++i) b.add(0, rec);
    EXPECT_EQ(b.bytes(), 100000u);
    std::uint64_t got = 0;
    const auto stats = exchange(t, b, 4000, [&](int, std::span<const std::byte> r) {
      EXPECT_EQ(r.size(), 1000u);
      ++got;
    });
    EXPECT_GE(stats.rounds, 25u);
    EXPECT_LE(stats.rounds, 50u);
    EXPECT_EQ(stats.bytes_sent, 100000u);
    EXPECT_EQ(got, t.rank() == 0 ? 100u * static_cast<unsigned>(t.size()) : 0u);
  });
}

TEST_P(ShuffleTest, SortSameSequenceForAnyRankCount) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_sort(t, 3000, 0, false, 256); });
}

TEST_P(ShuffleTest, SortManyEqualKeysAndSkew) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    testing::check_sort(t, 1500, 3, false, 1 << 20);
    testing::check_sort(t, 1500, 1, true, 512);
    testing::check_sort(t, 5, 0, false, 64);  // fewer records than ranks
    testing::check_sort(t, 0, 0, false, 64);
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, ShuffleTest, ::testing::Values(1, 2, 3, 4, 5));

TEST(Buckets, RejectsBadDestinationAndTransportMismatch) {
  Buckets b(3);
  EXPECT_THROW(b.add(3, {}), std::out_of_range);
  EXPECT_THROW(b.add(-1, {}), std::out_of_range);
  b.add(2, {});  // an empty record is a record
  EXPECT_EQ(b.records(), 1u);
  EXPECT_THROW(comm::run_local(2, [&](comm::Transport& t) { exchange(t, b, 64, [](int, auto) {}); }),
               std::invalid_argument);
}

TEST(Buckets, FixedSizeRejectsOtherSizes) {
  Buckets b(2, 8);
  EXPECT_EQ(b.framed_bytes(8), 8u);
  EXPECT_THROW(b.add(0, std::vector<std::byte>(7)), std::invalid_argument);
  EXPECT_THROW(b.append(1, 9), std::invalid_argument);
  EXPECT_THROW(b.add(2, std::vector<std::byte>(8)), std::out_of_range);
  b.add(1, std::vector<std::byte>(8, std::byte{3}));
  EXPECT_EQ(b.records(), 1u);
  EXPECT_EQ(b.bytes(), 8u);
  EXPECT_EQ(Buckets(2).framed_bytes(8), 9u);
}

TEST(Buckets, AppendRecordsOnlyForFixedSizeRecords) {
  Buckets framed(2);
  EXPECT_THROW(framed.append_records(0, 1), std::invalid_argument);
  EXPECT_THROW(comm::run_local(1, [&](comm::Transport& t) { exchange_fixed(t, framed, 64, [](int, auto) {}); }),
               std::invalid_argument);
  Buckets b(2, 4);
  EXPECT_THROW(b.append_records(2, 1), std::out_of_range);
  const std::uint32_t words[3] = {1, 2, 3};
  std::memcpy(b.append_records(1, 3), words, sizeof words);
  std::memcpy(b.append_records(1, 0), words, 0);
  EXPECT_EQ(b.records(), 3u);
  EXPECT_EQ(b.bytes(), 12u);
}

// Each rank sends to the other only, so every round has one destination and goes out straight
// from the bucket (no copy): the records arrive whole and in order through many rounds.
TEST(Buckets, EmptyAndLargeRecordsSurvive) {
  comm::run_local(2, [](comm::Transport& t) {
    Buckets b(2);
    std::vector<std::byte> big(100000, std::byte{7});
    b.add(1 - t.rank(), {});
    b.add(1 - t.rank(), big);  // bigger than the round budget and than one varint byte
    const std::uint32_t word = 0xdeadbeef;  // written in place, as reduce_by_key encodes
    std::memcpy(b.append(1 - t.rank(), sizeof word), &word, sizeof word);
    std::vector<std::size_t> sizes;
    std::uint32_t pod = 0;
    const auto stats = exchange(t, b, 16, [&](int source, std::span<const std::byte> r) {
      EXPECT_EQ(source, 1 - t.rank());
      sizes.push_back(r.size());
      if (r.size() == 4) std::memcpy(&pod, r.data(), sizeof pod);
      if (r.size() == big.size()) {
        EXPECT_TRUE(std::equal(r.begin(), r.end(), big.begin()));
      }
    });
    EXPECT_EQ(sizes, (std::vector<std::size_t>{0, 100000, 4}));
    EXPECT_EQ(pod, 0xdeadbeefu);
    EXPECT_EQ(stats.bytes_received, 100004u);
  });
}

}  // namespace
}  // namespace crd::shuffle
