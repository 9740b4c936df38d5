// DigestIndex: ids against a reference map, full-digest verification of tag matches, growth.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "crd/discover/digest_index.hpp"
#include "support/random_digest.hpp"

namespace crd::discover {
namespace {

using crd::testing::random_digest;

// Bytes 8..19 (position bits and tag) all equal: every digest has the same home slot AND the same
// tag; they differ only in bytes 0..7, which only the full comparison sees.
Digest same_tag_digest(std::uint64_t i) {
  Digest d;
  for (std::size_t k = 0; k < 8; ++k) d.bytes[k] = static_cast<std::uint8_t>(i >> (8 * k));
  for (std::size_t k = 8; k < 20; ++k) d.bytes[k] = static_cast<std::uint8_t>(0xC3 + k);
  return d;
}

// The caller's side of the contract: a column appended on every insert.
struct Column {
  DigestIndex index;
  std::vector<Digest> digests;
  explicit Column(std::size_t expected) : index(expected) {}
  DigestIndex::Found add(const Digest& d) {
    const DigestIndex::Found f = index.find_or_insert(d, digests);
    if (f.inserted) digests.push_back(d);
    return f;
  }
  std::uint32_t find(const Digest& d) const { return index.find(d, digests); }
};

TEST(DigestIndex, MatchesReferenceMapOverRandomDigests) {
  std::mt19937_64 rng(18);
  Column c(4);
  std::map<Digest, std::uint32_t> reference;
  std::vector<Digest> seen;
  for (std::uint32_t i = 0; i < 200000; ++i) {
    // About one add in three repeats an earlier digest, as chunks recur.
    const bool repeat = !seen.empty() && rng() % 3 == 0;
    const Digest d = repeat ? seen[rng() % seen.size()] : random_digest(rng);
    const auto [it, fresh] = reference.emplace(d, static_cast<std::uint32_t>(reference.size()));
    if (fresh) seen.push_back(d);
    const DigestIndex::Found f = c.add(d);
    ASSERT_EQ(f.inserted, fresh) << i;
    ASSERT_EQ(f.id, it->second) << i;
  }
  ASSERT_EQ(c.digests.size(), reference.size());
  EXPECT_LE(reference.size() * 4, c.index.capacity() * 3) << "load stays at most 3/4";
  for (const auto& [d, id] : reference) {
    ASSERT_EQ(c.find(d), id);
    EXPECT_EQ(c.digests[id], d);
  }
  for (int i = 0; i < 10000; ++i) EXPECT_EQ(c.find(random_digest(rng)), DigestIndex::kNone);
}

// candidate(), the prefetch's guess: the id itself for a digest with a unique tag, kNone for an
// empty table; for digests sharing home slot and tag, the first of them (a guess: find decides).
TEST(DigestIndex, CandidateIsTheIdUnlessTagsCollide) {
  std::mt19937_64 rng(21);
  Column c(4);
  EXPECT_EQ(c.index.candidate(random_digest(rng)), DigestIndex::kNone);
  for (int i = 0; i < 5000; ++i) c.add(random_digest(rng));
  for (std::uint32_t id = 0; id < c.digests.size(); ++id) ASSERT_EQ(c.index.candidate(c.digests[id]), id);
  Column same(4);
  for (std::uint64_t i = 0; i < 5; ++i) same.add(same_tag_digest(i));
  for (std::uint64_t i = 0; i < 5; ++i) EXPECT_EQ(same.index.candidate(same_tag_digest(i)), 0u);
}

TEST(DigestIndex, EqualTagsAndPositionsAreToldApartByTheFullDigest) {
  Column c(16);
  constexpr std::uint64_t kKeys = 3000;  // one long probe run of equal tags, through several growths
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const DigestIndex::Found f = c.add(same_tag_digest(i));
    ASSERT_TRUE(f.inserted) << "a tag match is not a digest match: " << i;
    ASSERT_EQ(f.id, i);
  }
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    EXPECT_EQ(c.find(same_tag_digest(i)), i);
    const DigestIndex::Found again = c.add(same_tag_digest(i));
    EXPECT_FALSE(again.inserted);
    EXPECT_EQ(again.id, i);
  }
  EXPECT_EQ(c.digests.size(), kKeys);
  EXPECT_EQ(c.find(same_tag_digest(kKeys)), DigestIndex::kNone);
  // Differing in one bit (of byte 7; no inserted digest has it set) is enough.
  Digest near = same_tag_digest(5);
  near.bytes[7] ^= 0x80;
  EXPECT_EQ(c.find(near), DigestIndex::kNone);
}

TEST(DigestIndex, IdsStayDenseAndStableThroughGrowth) {
  std::mt19937_64 rng(7);
  Column c(1);
  const std::size_t initial = c.index.capacity();
  std::vector<std::size_t> capacities{initial};
  for (std::uint32_t i = 0; i < 100000; ++i) {
    const DigestIndex::Found f = c.add(random_digest(rng));
    ASSERT_TRUE(f.inserted);
    ASSERT_EQ(f.id, i) << "ids are dense, in first-seen order";
    if (c.index.capacity() != capacities.back()) {
      capacities.push_back(c.index.capacity());
      // Right after a growth every earlier id is still found, unchanged.
      for (std::uint32_t j = 0; j <= i; j += 1 + j / 64) ASSERT_EQ(c.find(c.digests[j]), j);
    }
  }
  EXPECT_EQ(initial, 16u);
  EXPECT_GE(capacities.size(), 12u) << "16 → 2^18 slots is 14 doublings";
  for (std::size_t k = 1; k < capacities.size(); ++k) EXPECT_EQ(capacities[k], 2 * capacities[k - 1]);
  for (std::uint32_t id = 0; id < c.digests.size(); ++id) ASSERT_EQ(c.find(c.digests[id]), id);
  EXPECT_EQ(c.index.memory_bytes(), c.index.capacity() * 8);
}

TEST(DigestIndex, RebuildFromColumnAndMoves) {
  std::mt19937_64 rng(3);
  std::vector<Digest> digests;
  for (int i = 0; i < 5000; ++i) digests.push_back(i % 2 ? random_digest(rng) : same_tag_digest(i));
  DigestIndex index(0);
  ASSERT_TRUE(index.rebuild(digests));
  EXPECT_GE(index.capacity() * 3, digests.size() * 4);
  for (std::uint32_t id = 0; id < digests.size(); ++id) ASSERT_EQ(index.find(digests[id], digests), id);
  // The next insert takes the next id.
  const Digest extra = random_digest(rng);
  const DigestIndex::Found f = index.find_or_insert(extra, digests);
  EXPECT_TRUE(f.inserted);
  EXPECT_EQ(f.id, digests.size());
  digests.push_back(extra);

  // A column holding a digest twice (a corrupt checkpoint) is reported, not indexed twice.
  std::vector<Digest> twice{digests[0], digests[1], digests[0]};
  DigestIndex corrupt;
  EXPECT_FALSE(corrupt.rebuild(twice));
  EXPECT_EQ(corrupt.find(digests[0], twice), 0u);

  DigestIndex moved(std::move(index));
  EXPECT_EQ(moved.find(extra, digests), 5000u);
  // A moved-from index finds nothing and stays usable.
  EXPECT_EQ(index.find(extra, digests), DigestIndex::kNone);  // NOLINT(bugprone-use-after-move)
  std::vector<Digest> other;
  const DigestIndex::Found g = index.find_or_insert(extra, other);
  EXPECT_TRUE(g.inserted);
  EXPECT_EQ(g.id, 0u);
  other.push_back(extra);
  EXPECT_EQ(index.find(extra, other), 0u);
  DigestIndex assigned;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.find(digests[17], digests), 17u);
}

}  // namespace
// The hint that makes the scan's inserts find their slot cached must survive optimisation: GCC 12
// at -O2 deleted it (a __builtin_prefetch behind the empty-table test), and nothing else notices.
// The machine code of a function that only asks for the hint must hold a prefetch instruction
// (optimised builds: unoptimised ones call the hint out of line; sanitized ones put their checks
// and an early return before it, and are not what ships).
#if defined(__SANITIZE_ADDRESS__)
#define CRD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define CRD_SANITIZED 1
#endif
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__OPTIMIZE__) && !defined(CRD_SANITIZED)
namespace prefetch_probe {
__attribute__((noinline)) void hint(const DigestIndex& index, const Digest& digest) { index.prefetch(digest); }
}  // namespace prefetch_probe

TEST(DigestIndex, PrefetchIsCompiledIn) {
  // prefetcht0 is 0F 18 with ModRM.reg = 1; scan the function's bytes up to its first ret (C3).
  const auto* code = reinterpret_cast<const unsigned char*>(&prefetch_probe::hint);
  bool found = false;
  for (std::size_t i = 0; i + 2 < 256 && code[i] != 0xC3 && !found; ++i)
    found = code[i] == 0x0F && code[i + 1] == 0x18 && ((code[i + 2] >> 3) & 7) == 1;
  EXPECT_TRUE(found) << "DigestIndex::prefetch compiled to no prefetcht0";
  std::mt19937_64 rng(5);
  DigestIndex index;  // and the hint is harmless on any table, even an empty or moved-from one
  prefetch_probe::hint(index, random_digest(rng));
  DigestIndex moved(std::move(index));
  prefetch_probe::hint(index, random_digest(rng));  // NOLINT(bugprone-use-after-move): on purpose
  EXPECT_EQ(moved.find(random_digest(rng), {}), DigestIndex::kNone);
}
#endif

}  // namespace crd::discover
