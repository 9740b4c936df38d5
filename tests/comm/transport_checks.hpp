// Conformance checks any Transport must pass; run on the thread and the MPI implementations alike.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "crd/comm/collectives.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm::testing {

// Bytes rank `from` sends to rank `to`: a count that is zero for some pairs, and content that
// names both ends and the position, so any misplaced byte shows.
inline std::uint64_t pair_count(int from, int to) { return static_cast<std::uint64_t>((from * 7 + to * 3) % 11); }
inline std::byte pair_byte(int from, int to, std::uint64_t i) {
  return static_cast<std::byte>((from * 31 + to * 17 + static_cast<int>(i % 251)) & 0xff);
}

inline void check_alltoallv(Transport& t, std::uint64_t scale = 1) {
  const int me = t.rank(), n = t.size();
  std::vector<std::byte> send;
  std::vector<std::uint64_t> counts;
  for (int to = 0; to < n; ++to) {
    counts.push_back(pair_count(me, to) * scale);
    for (std::uint64_t i = 0; i < counts.back(); ++i) send.push_back(pair_byte(me, to, i));
  }
  std::vector<std::byte> recv;
  std::vector<std::uint64_t> recv_counts;
  t.alltoallv(send, counts, recv, recv_counts);
  ASSERT_EQ(recv_counts.size(), static_cast<std::size_t>(n));
  std::size_t at = 0;
  for (int from = 0; from < n; ++from) {
    ASSERT_EQ(recv_counts[static_cast<std::size_t>(from)], pair_count(from, me) * scale) << "from " << from;
    for (std::uint64_t i = 0; i < recv_counts[static_cast<std::size_t>(from)]; ++i, ++at)
      ASSERT_EQ(recv[at], pair_byte(from, me, i)) << "from " << from << " byte " << i;
  }
  EXPECT_EQ(at, recv.size());
}

inline void check_allgatherv(Transport& t, std::uint64_t scale = 1) {
  const int me = t.rank(), n = t.size();
  std::vector<std::byte> send;
  for (std::uint64_t i = 0; i < pair_count(me, me + 1) * scale; ++i) send.push_back(pair_byte(me, -1, i));
  std::vector<std::byte> recv;
  std::vector<std::uint64_t> counts;
  t.allgatherv(send, recv, counts);
  ASSERT_EQ(counts.size(), static_cast<std::size_t>(n));
  std::size_t at = 0;
  for (int from = 0; from < n; ++from) {
    ASSERT_EQ(counts[static_cast<std::size_t>(from)], pair_count(from, from + 1) * scale);
    for (std::uint64_t i = 0; i < counts[static_cast<std::size_t>(from)]; ++i, ++at)
      ASSERT_EQ(recv[at], pair_byte(from, -1, i));
  }
  EXPECT_EQ(at, recv.size());
}

inline void check_reductions(Transport& t) {
  const auto me = static_cast<std::uint64_t>(t.rank());
  const auto n = static_cast<std::uint64_t>(t.size());
  std::vector<std::uint64_t> v{me, 10 + me, 1};
  t.allreduce(v, ReduceOp::Sum);
  EXPECT_EQ(v, (std::vector<std::uint64_t>{n * (n - 1) / 2, 10 * n + n * (n - 1) / 2, n}));
  std::vector<std::uint64_t> lo{me + 5, 100 - me};
  t.allreduce(lo, ReduceOp::Min);
  EXPECT_EQ(lo, (std::vector<std::uint64_t>{5, 100 - (n - 1)}));
  std::vector<double> d{0.5 * static_cast<double>(me), -static_cast<double>(me)};
  t.allreduce(d, ReduceOp::Max);
  EXPECT_DOUBLE_EQ(d[0], 0.5 * static_cast<double>(n - 1));
  EXPECT_DOUBLE_EQ(d[1], 0.0);
  std::vector<double> s{1.25};
  t.allreduce(s, ReduceOp::Sum);
  EXPECT_DOUBLE_EQ(s[0], 1.25 * static_cast<double>(n));

  // exscan of (rank+1)^2: sum over lower ranks.
  std::uint64_t expect = 0;
  for (std::uint64_t r = 0; r < me; ++r) expect += (r + 1) * (r + 1);
  EXPECT_EQ(t.exscan_sum((me + 1) * (me + 1)), expect);

  EXPECT_TRUE(comm::all_ok(t, true));
  EXPECT_FALSE(comm::all_ok(t, me != n - 1));
  EXPECT_EQ(comm::sum(t, me), n * (n - 1) / 2);
  EXPECT_EQ(comm::max(t, me * 3), (n - 1) * 3);
  t.barrier();
}

}  // namespace crd::comm::testing
