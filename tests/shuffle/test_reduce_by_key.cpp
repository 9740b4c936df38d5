// reduce_by_key / group_by_key and the field codec on the thread transport, 1..4 ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "crd/comm/collectives.hpp"
#include "crd/comm/local_transport.hpp"
#include "reduce_checks.hpp"
#include "support/random_digest.hpp"

namespace crd::shuffle {
namespace {

class ReduceTest : public ::testing::TestWithParam<int> {};

TEST_P(ReduceTest, EqualsSingleProcessReferenceInAnyInputOrder) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    for (std::uint64_t permutation = 0; permutation < 3; ++permutation) {
      testing::check_reduce(t, 2000, 300, false, 1 << 20, permutation);  // many equal keys
      testing::check_reduce(t, 500, 0, false, 1 << 20, permutation);     // all distinct
    }
  });
}

TEST_P(ReduceTest, TinyRoundsNeedManyRounds) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    testing::check_reduce(t, 400, 50, false, 3, 1);
    testing::check_reduce(t, 400, 50, true, 1, 2);  // everything starts on rank 0
  });
}

TEST_P(ReduceTest, RecordsLargerThanTheRoundLimit) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_reduce(t, 120, 40, false, 64, 1, 5000); });
}

TEST_P(ReduceTest, NothingAnywhere) {
  comm::run_local(GetParam(), [](comm::Transport& t) { testing::check_reduce(t, 0, 0, false, 64, 0); });
}

TEST_P(ReduceTest, CustomOwnerAndStringKeys) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    testing::check_custom_owner(t, 700, 1 << 16);
    testing::check_custom_owner(t, 300, 5);
  });
}

TEST_P(ReduceTest, GroupByKeyKeepsEveryValueSorted) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    testing::check_group(t, 900, 60, 1 << 20, 0);
    testing::check_group(t, 900, 60, 7, 4);
  });
}

TEST_P(ReduceTest, OwnerOutsideTheRanksIsAnError) {
  EXPECT_THROW(comm::run_local(GetParam(),
                               [](comm::Transport& t) {
                                 std::vector<testing::TextCount> mine{{"a", 1}};
                                 reduce_by_key(
                                     t, mine, [](const testing::TextCount& r) { return r.text; },
                                     [](const std::string&, int nranks) { return nranks; },
                                     [](testing::TextCount&, const testing::TextCount&) {}, {64});
                               }),
               std::out_of_range);
}

// Records of POD fields only (discovery's count records) travel unframed: the same results as a
// single-process reference with a budget of many records, of one, of less than one, and of a
// few but not a whole number of them, and when every record starts on rank 0. With the default
// owner they are sent as they lie in memory (sizeof(Fixed) bytes each, from one range per
// rank); with any other owner, encoded into buckets (36 bytes each).
struct Fixed {
  Digest key;
  std::uint64_t count = 0;
  std::uint64_t serial_sum = 0;  // loss or duplication of a record shows here
  static constexpr auto fields() { return std::tuple(&Fixed::key, &Fixed::count, &Fixed::serial_sum); }
  bool operator==(const Fixed&) const = default;
};
static_assert(fixed_encoded_size<Fixed>() == 36);
static_assert(sizeof(Fixed) == 40);

template <class Owner>
void check_fixed_size_records(int nranks, Owner owner, std::size_t record_bytes) {
  constexpr std::uint64_t kTotal = 1500, kKeys = 200;
  std::map<Digest, Fixed> reference;
  for (std::uint64_t i = 0; i < kTotal; ++i) {
    const testing::Item it = testing::make_item(5, i, kKeys);
    auto [at, added] = reference.try_emplace(it.key, Fixed{it.key, 1, i});
    if (!added) {
      ++at->second.count;
      at->second.serial_sum += i;
    }
  }
  comm::run_local(nranks, [&](comm::Transport& t) {
    for (const auto& [round, skew] : {std::pair<std::size_t, bool>{1 << 20, false}, {36, false}, {40, false},
                                      {1, true}, {100, false}}) {
      std::vector<Fixed> mine;
      std::set<Digest> sent;  // distinct keys this rank holds that another rank owns
      for (const testing::Item& it : testing::local_items(5, kTotal, kKeys, t.rank(), t.size(), skew)) {
        mine.push_back({it.key, 1, it.serial});
        if (owner(it.key, t.size()) != t.rank()) sent.insert(it.key);
      }
      std::map<Digest, std::set<std::uint32_t>> holders;  // the ranks whose input has each key
      for (int r = 0; r < t.size(); ++r)
        for (const testing::Item& it : testing::local_items(5, kTotal, kKeys, r, t.size(), skew))
          holders[it.key].insert(static_cast<std::uint32_t>(r));
      ExchangeStats stats;
      Contributors contributors;
      const auto got = reduce_by_key(
          t, mine, [](const Fixed& f) -> const Digest& { return f.key; }, owner,
          [](Fixed& into, const Fixed& from) {
            into.count += from.count;
            into.serial_sum += from.serial_sum;
          },
          {round, &stats}, &contributors);
      std::vector<Fixed> expected;
      for (const auto& [key, row] : reference)
        if (owner(key, t.size()) == t.rank()) expected.push_back(row);
      EXPECT_EQ(got, expected) << "round " << round;
      ASSERT_EQ(contributors.offsets.size(), got.size() + 1);
      for (std::size_t i = 0; i < got.size(); ++i) {
        const std::vector<std::uint32_t> ranks(contributors.ranks.begin() + static_cast<std::ptrdiff_t>(contributors.offsets[i]),
                                               contributors.ranks.begin() + static_cast<std::ptrdiff_t>(contributors.offsets[i + 1]));
        const std::set<std::uint32_t>& want = holders[got[i].key];
        EXPECT_EQ(ranks, std::vector<std::uint32_t>(want.begin(), want.end())) << "round " << round << ", row " << i;
      }
      EXPECT_EQ(stats.bytes_sent, sent.size() * record_bytes) << "round " << round;
      EXPECT_EQ(comm::sum(t, stats.bytes_received), comm::sum(t, stats.bytes_sent)) << "round " << round;
      EXPECT_EQ(comm::sum(t, got.size()), reference.size());
    }
  });
}

TEST_P(ReduceTest, FixedSizeRecordsEqualReference) {
  check_fixed_size_records(GetParam(), HashPrefixOwner{}, sizeof(Fixed));
  check_fixed_size_records(GetParam(), [](const Digest& key, int nranks) { return key.bytes[19] % nranks; }, 36);
}

INSTANTIATE_TEST_SUITE_P(Ranks, ReduceTest, ::testing::Values(1, 2, 3, 4));

// The codec derived from a field list: nested records, strings and vectors, byte for byte.
struct Inner {
  std::uint16_t a = 0;
  std::string s;
  static constexpr auto fields() { return std::tuple(&Inner::a, &Inner::s); }
  bool operator==(const Inner&) const = default;
};
struct Outer {
  Digest d;
  std::uint8_t flag = 0;  // padding follows in memory; it must not travel
  std::uint64_t n = 0;
  std::vector<Inner> inner;
  std::vector<std::uint32_t> ids;
  static constexpr auto fields() { return std::tuple(&Outer::d, &Outer::flag, &Outer::n, &Outer::inner, &Outer::ids); }
  bool operator==(const Outer&) const = default;
};

TEST(Fields, RoundTripAndExactLayout) {
  Outer o;
  o.d.bytes.fill(0xab);
  o.flag = 1;
  o.n = 0x0102030405060708ull;
  o.inner = {{7, "xy"}, {9, ""}};
  o.ids = {5, 6};
  ByteWriter w;
  write_fields(w, o);
  // 20 + 1 + 8, inner: 8 + (2 + 4 + 2) + (2 + 4), ids: 8 + 2 * 4.
  EXPECT_EQ(w.bytes().size(), 20u + 1 + 8 + 8 + 8 + 6 + 8 + 8);
  EXPECT_EQ(encoded_size(o), w.bytes().size());
  std::vector<std::byte> in_place(encoded_size(o));
  SpanWriter sw(in_place.data());
  write_fields(sw, o);
  EXPECT_TRUE(std::equal(in_place.begin(), in_place.end(), w.bytes().begin(), w.bytes().end()));
  EXPECT_EQ(std::to_integer<int>(w.bytes()[20]), 1);  // flag right after the digest: no padding
  ByteReader r(w.bytes());
  EXPECT_EQ(read_fields<Outer>(r), o);
  EXPECT_TRUE(r.done());
}

TEST(Fields, FixedEncodedSizeOnlyForPodFields) {
  struct Nested {
    Fixed fixed;
    std::uint8_t tail = 0;
    static constexpr auto fields() { return std::tuple(&Nested::fixed, &Nested::tail); }
  };
  struct Empty {
    static constexpr auto fields() { return std::tuple(); }
  };
  EXPECT_EQ(fixed_encoded_size<Nested>(), 37u);  // the fields' bytes: no padding
  EXPECT_EQ(fixed_encoded_size<Outer>(), 0u);     // vectors
  EXPECT_EQ(fixed_encoded_size<Inner>(), 0u);     // a string
  EXPECT_EQ(fixed_encoded_size<Empty>(), 0u);
  EXPECT_EQ(fixed_encoded_size<std::uint64_t>(), 8u);
  Nested n;
  n.tail = 9;
  ByteWriter w;
  write_fields(w, n);
  EXPECT_EQ(encoded_size(n), w.bytes().size());
}

TEST(Fields, TruncatedRecordIsAnError) {
  Outer o;
  o.ids = {1, 2, 3};
  ByteWriter w;
  write_fields(w, o);
  ByteReader r(w.bytes().first(w.bytes().size() - 1));
  EXPECT_THROW(read_fields<Outer>(r), std::runtime_error);
}

}  // namespace
}  // namespace crd::shuffle
