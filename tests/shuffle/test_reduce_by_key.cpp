// reduce_by_key / group_by_key on the thread transport, 1..4 ranks.
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

}  // namespace
}  // namespace crd::shuffle
