// DigestMap: insert/find through growth, colliding probe bits, and for_each coverage.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "crd/discover/digest_map.hpp"
#include "support/random_digest.hpp"

namespace crd::discover {
namespace {

using crd::testing::random_digest;

// Digests whose probe bits (bytes 8..15) are all equal: every key lands in the same home slot.
Digest colliding_digest(std::uint32_t i) {
  Digest d;
  d.bytes[0] = static_cast<std::uint8_t>(i >> 24);
  d.bytes[1] = static_cast<std::uint8_t>(i >> 16);
  d.bytes[2] = static_cast<std::uint8_t>(i >> 8);
  d.bytes[3] = static_cast<std::uint8_t>(i);
  for (int k = 8; k < 16; ++k) d.bytes[static_cast<std::size_t>(k)] = 0xAB;
  d.bytes[19] = static_cast<std::uint8_t>(i * 7);
  return d;
}

TEST(DigestMap, InsertFindThroughGrowth) {
  std::mt19937_64 rng(11);
  DigestMap<std::uint64_t> map(4);
  std::map<Digest, std::uint64_t> reference;
  const std::size_t initial_capacity = map.capacity();
  for (std::uint64_t i = 0; i < 50000; ++i) {
    const Digest d = random_digest(rng);
    bool inserted = false;
    std::uint64_t& v = map.find_or_insert(d, inserted);
    ASSERT_TRUE(inserted);
    EXPECT_EQ(v, 0u) << "new values are value-initialized";
    v = i * 3 + 1;
    reference[d] = i * 3 + 1;
  }
  EXPECT_EQ(map.size(), reference.size());
  EXPECT_GT(map.capacity(), initial_capacity);
  EXPECT_LE(map.size() * 8, map.capacity() * 7) << "load factor stays at most 7/8";
  for (const auto& [d, v] : reference) {
    const std::uint64_t* found = map.find(d);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(*found, v);
    bool inserted = true;
    EXPECT_EQ(map.find_or_insert(d, inserted), v);
    EXPECT_FALSE(inserted);
  }
  EXPECT_EQ(map.size(), reference.size()) << "lookups of present keys insert nothing";
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(map.find(random_digest(rng)), nullptr);
}

TEST(DigestMap, CollidingProbeBits) {
  DigestMap<std::uint32_t> map(16);
  constexpr std::uint32_t kKeys = 3000;  // one long probe run, several rehashes
  for (std::uint32_t i = 0; i < kKeys; ++i) {
    bool inserted = false;
    map.find_or_insert(colliding_digest(i), inserted) = i + 100;
    ASSERT_TRUE(inserted) << i;
  }
  ASSERT_EQ(map.size(), kKeys);
  for (std::uint32_t i = 0; i < kKeys; ++i) {
    const std::uint32_t* v = map.find(colliding_digest(i));
    ASSERT_NE(v, nullptr) << i;
    EXPECT_EQ(*v, i + 100);
  }
  EXPECT_EQ(map.find(colliding_digest(kKeys + 5)), nullptr);
  const auto& cmap = map;
  EXPECT_EQ(*cmap.find(colliding_digest(17)), 117u);
}

TEST(DigestMap, ForEachVisitsEachEntryOnce) {
  std::mt19937_64 rng(5);
  DigestMap<std::uint32_t> map;
  std::map<Digest, std::uint32_t> reference;
  for (std::uint32_t i = 0; i < 5000; ++i) {
    // Mix random and colliding keys; insert some twice.
    const Digest d = (i % 3 == 0) ? colliding_digest(i) : random_digest(rng);
    bool inserted = false;
    map.find_or_insert(d, inserted) += 1;
    reference[d] += 1;
    if (i % 10 == 0) {
      map.find_or_insert(d, inserted) += 1;
      EXPECT_FALSE(inserted);
      reference[d] += 1;
    }
  }
  std::map<Digest, std::uint32_t> visited;
  const auto& cmap = map;
  cmap.for_each([&](const Digest& d, const std::uint32_t& v) {
    EXPECT_TRUE(visited.emplace(d, v).second) << "visited twice: " << to_hex(d);
  });
  EXPECT_EQ(visited, reference);
  // The mutable overload sees the same entries and can change values.
  map.for_each([](const Digest&, std::uint32_t& v) { v *= 2; });
  for (const auto& [d, v] : reference) EXPECT_EQ(*map.find(d), 2 * v);
}

// Moves hand the table over without copying; reserve sizes once; a moved-from map stays usable.
TEST(DigestMap, MoveReserveAndMovedFrom) {
  std::mt19937_64 rng(11);
  DigestMap<std::uint32_t> map;
  map.reserve(100000);
  const std::size_t reserved = map.capacity();
  EXPECT_GE(reserved * 3, 100000u * 4);
  std::vector<Digest> keys;
  for (std::uint32_t i = 0; i < 100000; ++i) {
    keys.push_back(random_digest(rng));
    bool inserted = false;
    map.find_or_insert(keys.back(), inserted) = i;
    ASSERT_TRUE(inserted);
  }
  EXPECT_EQ(map.capacity(), reserved);  // no growth past the reservation
  DigestMap<std::uint32_t> moved(std::move(map));
  EXPECT_EQ(moved.size(), 100000u);
  for (std::uint32_t i = 0; i < keys.size(); i += 101) EXPECT_EQ(*moved.find(keys[i]), i);
  EXPECT_EQ(map.find(keys[0]), nullptr);  // NOLINT(bugprone-use-after-move): defined empty state
  bool inserted = false;
  map.find_or_insert(keys[0], inserted) = 7;
  EXPECT_TRUE(inserted);
  EXPECT_EQ(*map.find(keys[0]), 7u);
  DigestMap<std::uint32_t> assigned;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.size(), 100000u);
  EXPECT_EQ(*assigned.find(keys[500]), 500u);
}

TEST(DigestMap, ClearEmptiesAndStaysUsable) {
  std::mt19937_64 rng(9);
  DigestMap<int> map;
  std::vector<Digest> keys;
  for (int i = 0; i < 100; ++i) {
    keys.push_back(random_digest(rng));
    bool inserted = false;
    map.find_or_insert(keys.back(), inserted) = i;
  }
  map.clear();
  EXPECT_EQ(map.size(), 0u);
  for (const auto& d : keys) EXPECT_EQ(map.find(d), nullptr);
  int visits = 0;
  map.for_each([&](const Digest&, int&) { ++visits; });
  EXPECT_EQ(visits, 0);
  bool inserted = false;
  map.find_or_insert(keys[3], inserted) = 42;
  EXPECT_TRUE(inserted);
  EXPECT_EQ(*map.find(keys[3]), 42);
}

}  // namespace
}  // namespace crd::discover
