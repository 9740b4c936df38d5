// The typed collectives (comm/collectives/) on 1–4 thread ranks: values with strings,
// vectors and nested fields arrive whole, in rank order, and only where they are meant to.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "crd/comm/collectives.hpp"
#include "crd/comm/local_transport.hpp"

namespace crd::comm {
namespace {

struct Item {
  std::string name;
  std::uint64_t size = 0;
  static constexpr auto fields() { return std::tuple(&Item::name, &Item::size); }
  bool operator==(const Item&) const = default;
};
struct Message {
  std::uint8_t step = 0;
  std::string text;
  std::vector<Item> items;
  static constexpr auto fields() { return std::tuple(&Message::step, &Message::text, &Message::items); }
  bool operator==(const Message&) const = default;
};

// Rank r's value: r items (none on rank 0), names that differ in length and include a NUL.
std::vector<Item> items_of(int rank) {
  std::vector<Item> out;
  for (int i = 0; i < rank; ++i)
    out.push_back({std::string(static_cast<std::size_t>(i), 'a') + '\0' + "r" + std::to_string(rank), 10u * rank + i});
  return out;
}

class Collectives : public ::testing::TestWithParam<int> {};

TEST_P(Collectives, BroadcastGivesRankZerosValueEverywhere) {
  run_local(GetParam(), [](Transport& t) {
    const Message mine{static_cast<std::uint8_t>(t.rank() + 1), "from " + std::to_string(t.rank()),
                       items_of(t.rank() + 2)};
    const Message got = broadcast_from_rank0(t, mine);
    EXPECT_EQ(got, (Message{1, "from 0", items_of(2)}));
    EXPECT_EQ(broadcast_from_rank0(t, std::string(t.rank() == 0 ? "" : "ignored")), "");  // empty survives
  });
}

TEST_P(Collectives, AllgatherIsByRankOnEveryRank) {
  run_local(GetParam(), [](Transport& t) {
    const auto all = allgather(t, items_of(t.rank()));
    ASSERT_EQ(all.size(), static_cast<std::size_t>(t.size()));
    for (int r = 0; r < t.size(); ++r) EXPECT_EQ(all[static_cast<std::size_t>(r)], items_of(r)) << "rank " << r;
  });
}

TEST_P(Collectives, GatherReachesRankZeroOnly) {
  run_local(GetParam(), [](Transport& t) {
    const auto all = gather_to_rank0(t, items_of(t.rank()));
    if (t.rank() != 0) {
      EXPECT_TRUE(all.empty());
      return;
    }
    ASSERT_EQ(all.size(), static_cast<std::size_t>(t.size()));
    for (int r = 0; r < t.size(); ++r) EXPECT_EQ(all[static_cast<std::size_t>(r)], items_of(r)) << "rank " << r;
  });
}

TEST_P(Collectives, ScatterGivesEachRankItsOwnValue) {
  run_local(GetParam(), [](Transport& t) {
    std::vector<Message> values;
    if (t.rank() == 0)
      for (int r = 0; r < t.size(); ++r)
        values.push_back({static_cast<std::uint8_t>(r), "to " + std::to_string(r), items_of(r)});
    const Message got = scatter_from_rank0(t, values);
    EXPECT_EQ(got,
              (Message{static_cast<std::uint8_t>(t.rank()), "to " + std::to_string(t.rank()), items_of(t.rank())}));
    // A wrong count is refused on rank 0 before anything is sent; the other ranks' argument is ignored.
    if (t.rank() == 0) {
      EXPECT_THROW(scatter_from_rank0(t, std::vector<Message>(t.size() + 1)), std::invalid_argument);
    }
  });
}

// Rank s sends rank d a message naming both (items_of(s + d), so sizes differ per pair, some empty).
TEST_P(Collectives, AlltoallValuesReachEachDestinationFromEachSource) {
  run_local(GetParam(), [](Transport& t) {
    const auto n = static_cast<std::size_t>(t.size());
    std::vector<Message> out;
    for (int d = 0; d < t.size(); ++d)
      out.push_back(
          {static_cast<std::uint8_t>(d), std::to_string(t.rank()) + "->" + std::to_string(d), items_of(t.rank() + d)});
    const auto got = alltoall(t, out);
    ASSERT_EQ(got.size(), n);
    for (int s = 0; s < t.size(); ++s)
      EXPECT_EQ(got[static_cast<std::size_t>(s)],
                (Message{static_cast<std::uint8_t>(t.rank()), std::to_string(s) + "->" + std::to_string(t.rank()),
                         items_of(s + t.rank())}));
    EXPECT_THROW(alltoall(t, std::vector<Message>(n + 1)), std::invalid_argument);  // before sending
  });
}

TEST_P(Collectives, ConcatenationsKeepRankOrderAndUnevenCounts) {
  run_local(GetParam(), [](Transport& t) {
    // Rank r gives r values r*10, r*10+1, …: rank 0 gives none.
    std::vector<std::uint64_t> mine;
    for (int i = 0; i < t.rank(); ++i) mine.push_back(10u * t.rank() + i);
    std::vector<std::uint64_t> expected;
    for (int r = 0; r < t.size(); ++r)
      for (int i = 0; i < r; ++i) expected.push_back(10u * r + i);
    EXPECT_EQ(allgather_concat(t, std::span<const std::uint64_t>(mine)), expected);
    const auto gathered = gather_concat_to_rank0(t, std::span<const std::uint64_t>(mine));
    EXPECT_EQ(gathered, t.rank() == 0 ? expected : std::vector<std::uint64_t>{});
    const std::string text(static_cast<std::size_t>(t.rank()), static_cast<char>('a' + t.rank()));
    std::string all_text;
    for (int r = 0; r < t.size(); ++r) all_text += std::string(static_cast<std::size_t>(r), static_cast<char>('a' + r));
    const auto bytes = gather_concat_to_rank0<std::byte>(t, std::as_bytes(std::span<const char>(text)));
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), t.rank() == 0 ? all_text : "");
  });
}

TEST_P(Collectives, ReductionsAndFirstErrorAgreeOnEveryRank) {
  run_local(GetParam(), [](Transport& t) {
    const auto me = static_cast<std::uint64_t>(t.rank()), n = static_cast<std::uint64_t>(t.size());
    EXPECT_EQ(sum(t, me + 1), n * (n + 1) / 2);
    EXPECT_EQ(min(t, 7 + me), 7u);
    EXPECT_EQ(max(t, 7 + me), 6 + n);
    EXPECT_TRUE(all_ok(t, true));
    EXPECT_EQ(all_ok(t, me != 0), false);
    EXPECT_EQ(first_error(t, ""), "");
    // The lowest rank with an error wins; rank 0 has none when there are several ranks.
    const std::string mine = me == 0 && n > 1 ? "" : "disk " + std::to_string(me);
    EXPECT_EQ(first_error(t, mine), n > 1 ? "rank 1: disk 1" : "rank 0: disk 0");
  });
}

// The element-wise forms reduce each position apart, in place; exscan_sum counts the ranks before.
TEST_P(Collectives, ElementWiseReductionsAndExclusiveScan) {
  run_local(GetParam(), [](Transport& t) {
    const auto me = static_cast<std::uint64_t>(t.rank()), n = static_cast<std::uint64_t>(t.size());
    std::vector<std::uint64_t> v{me + 1, 10 * me, 5};
    sum(t, v);
    EXPECT_EQ(v, (std::vector<std::uint64_t>{n * (n + 1) / 2, 10 * n * (n - 1) / 2, 5 * n}));
    std::uint64_t pair[2] = {me, 100 - me};
    max(t, pair);
    EXPECT_EQ(pair[0], n - 1);
    EXPECT_EQ(pair[1], 100u);
    std::vector<double> seconds{0.5 * static_cast<double>(me), 3.0};
    max(t, std::span<double>(seconds));
    EXPECT_EQ(seconds, (std::vector<double>{0.5 * static_cast<double>(n - 1), 3.0}));
    EXPECT_EQ(exscan_sum(t, me + 1), me * (me + 1) / 2);
  });
}

TEST(Collectives, DecodeRefusesTruncatedAndLongerBytes) {
  const std::vector<std::byte> bytes = encode_value(Message{3, "text", items_of(2)});
  EXPECT_EQ(decode_value<Message>(bytes), (Message{3, "text", items_of(2)}));
  EXPECT_THROW(decode_value<Message>(std::span(bytes).first(bytes.size() - 1)), std::runtime_error);
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_THROW(decode_value<Message>(longer), std::runtime_error);
}

INSTANTIATE_TEST_SUITE_P(Ranks, Collectives, ::testing::Values(1, 2, 3, 4));

// A transport that counts the collectives it passes on to a one-rank transport.
class CountingTransport : public Transport {
 public:
  int allgathers = 0, reductions = 0;
  int rank() const override { return inner_->rank(); }
  int size() const override { return inner_->size(); }
  void alltoallv(std::span<const std::byte> send, std::span<const std::uint64_t> send_counts,
                 std::vector<std::byte>& recv, std::vector<std::uint64_t>& recv_counts) override {
    inner_->alltoallv(send, send_counts, recv, recv_counts);
  }
  void allgatherv(std::span<const std::byte> send, std::vector<std::byte>& recv,
                  std::vector<std::uint64_t>& counts) override {
    ++allgathers;
    inner_->allgatherv(send, recv, counts);
  }
  void allreduce(std::span<std::uint64_t> inout, ReduceOp op) override {
    ++reductions;
    inner_->allreduce(inout, op);
  }
  void allreduce(std::span<double> inout, ReduceOp op) override {
    ++reductions;
    inner_->allreduce(inout, op);
  }
  std::uint64_t exscan_sum(std::uint64_t value) override { return inner_->exscan_sum(value); }
  void barrier() override { inner_->barrier(); }
  [[noreturn]] void abort_all(const std::string& message) override { throw std::runtime_error(message); }

 private:
  std::unique_ptr<Transport> inner_ = make_single_rank_transport();
};

// first_error follows every write step of a result file: without an error it is one reduction,
// and the messages are gathered only when some rank has one.
TEST(FirstError, GathersOnlyWhenSomeRankFailed) {
  CountingTransport t;
  EXPECT_EQ(first_error(t, ""), "");
  EXPECT_EQ(t.reductions, 1);
  EXPECT_EQ(t.allgathers, 0);
  EXPECT_EQ(first_error(t, "disk full"), "rank 0: disk full");
  EXPECT_EQ(t.allgathers, 1);
}

}  // namespace
}  // namespace crd::comm
