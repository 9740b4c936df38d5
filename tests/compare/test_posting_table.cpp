// PostingTable against a std::map of the same pairs: every key's ids, in order and without repeats,
// absent keys empty — with key 0 (the empty slot's key), one key, no keys, and enough keys that
// probe chains are long.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "posting_table.hpp"

namespace crd::compare {
namespace {

void expect_same(const std::vector<KeyedId>& pairs, const std::vector<std::uint64_t>& absent) {
  std::map<std::uint64_t, std::set<std::uint32_t>> want;
  for (const auto& p : pairs) want[p.key].insert(p.id);
  const PostingTable table(pairs);
  EXPECT_EQ(table.keys(), want.size());
  for (const auto& [key, ids] : want) {
    const auto got = table.find(key);
    ASSERT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()), std::vector<std::uint32_t>(ids.begin(), ids.end()))
        << key;
  }
  for (const std::uint64_t key : absent) {
    if (want.contains(key)) continue;
    EXPECT_TRUE(table.find(key).empty()) << key;
  }
}

TEST(PostingTable, FindsEveryKeysIdsAndNothingElse) {
  std::mt19937_64 rng(1);
  std::vector<KeyedId> pairs;
  std::vector<std::uint64_t> absent;
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t key = i % 3 == 0 ? rng() % 500 : rng();  // small keys repeat, with many ids
    pairs.push_back({key, static_cast<std::uint32_t>(rng() % 1000)});
    if (i % 7 == 0) pairs.push_back(pairs.back());  // repeated pair: kept once
    absent.push_back(rng());
    absent.push_back(500 + i);
  }
  pairs.push_back({0, 42});
  expect_same(pairs, absent);
}

TEST(PostingTable, EmptyAndSingleKeyTables) {
  expect_same({}, {0, 1, 2});
  EXPECT_TRUE(PostingTable().find(0).empty());
  EXPECT_TRUE(PostingTable(std::vector<KeyedId>{}).find(7).empty());
  expect_same({{0, 3}, {0, 1}, {0, 3}}, {1, 2, ~std::uint64_t{0}});
  expect_same({{~std::uint64_t{0}, 5}}, {0, 1});
}

}  // namespace
}  // namespace crd::compare
