// key_order.hpp on one thread: the radix sort of digest keys and build_in_key_order, against
// the standard library's sorts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "crd/hash/digest.hpp"
#include "crd/shuffle/key_order.hpp"
#include "support/random_digest.hpp"

namespace crd::shuffle {
namespace {

// The radix sort of digest keys against std::sort by the digests' own order, at sizes that take
// it through two and more bytes, and with keys that share leading bytes, so that the radix passes
// run out of bytes (shift below 0) or leave one crowded bucket.
struct Tagged {
  Digest d;
  std::uint64_t tag = 0;  // the record's original position: equal digests must keep their tags
};
void expect_radix_sorts_like_std_sort(std::vector<Tagged> records) {
  std::vector<Tagged> expected = records;
  std::sort(expected.begin(), expected.end(),
            [](const Tagged& a, const Tagged& b) { return std::tie(a.d, a.tag) < std::tie(b.d, b.tag); });
  const auto key_of = [](const Tagged& r) -> const Digest& { return r.d; };
  detail::radix_sort_digests(records.data(), records.size(), key_of);
  ASSERT_EQ(records.size(), expected.size());
  // Equal digests may come out in any order: sort each run of them by tag, then compare exactly.
  for (std::size_t i = 0; i < records.size();) {
    std::size_t j = i;
    while (j < records.size() && records[j].d == records[i].d) ++j;
    std::sort(records.begin() + static_cast<std::ptrdiff_t>(i), records.begin() + static_cast<std::ptrdiff_t>(j),
              [](const Tagged& a, const Tagged& b) { return a.tag < b.tag; });
    i = j;
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    ASSERT_EQ(records[i].d, expected[i].d) << i;
    ASSERT_EQ(records[i].tag, expected[i].tag) << i;
  }
}

// Digests in random order, each tagged with its position.
std::vector<Tagged> uniform_records(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Tagged> records(n);
  for (std::size_t i = 0; i < n; ++i) records[i] = {crd::testing::random_digest(rng), i};
  return records;
}

// 5,001 digests whose first `shared` bytes are equal (but one), a third of them repeats.
std::vector<Tagged> crowded_records(int shared, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Digest base = crd::testing::random_digest(rng);
  std::vector<Tagged> records;
  for (std::size_t i = 0; i < 5000; ++i) {
    Digest d = crd::testing::random_digest(rng);
    std::copy_n(base.bytes.begin(), shared, d.bytes.begin());
    if (i % 3 == 0 && !records.empty()) d = records[rng() % records.size()].d;  // repeats
    records.push_back({d, i});
  }
  records.push_back({crd::testing::random_digest(rng), 5000});  // one outlier bucket
  return records;
}

constexpr std::size_t kSizes[] = {0, 1, 64, 65, 300, 20000, 400000, 600000};

TEST(RadixSortDigests, UniformDigestsAtEverySize) {
  for (std::size_t n : kSizes) expect_radix_sorts_like_std_sort(uniform_records(n, 7));
}

TEST(RadixSortDigests, SharedLeadingBytesAndRepeatedDigests) {
  for (int shared : {1, 3, 8, 12, 20}) expect_radix_sorts_like_std_sort(crowded_records(shared, 11));  // 8+: every radix byte equal
}

// build_in_key_order against std::stable_sort by digest: equal digests stay in index order. Its
// bucket count grows with n (256 up to 2^17 buckets), which the sizes take it through.
void expect_built_like_stable_sort(const std::vector<Tagged>& source) {
  std::vector<Tagged> expected = source;
  std::stable_sort(expected.begin(), expected.end(), [](const Tagged& a, const Tagged& b) { return a.d < b.d; });
  auto key_at = [&](std::size_t i) -> const Digest& { return source[i].d; };
  auto make = [&](std::size_t i) { return source[i]; };
  auto key_of = [](const Tagged& r) -> const Digest& { return r.d; };
  // As chosen for these sizes (32-bit bucket offsets), and with the 64-bit ones of n beyond 2^32.
  for (const std::vector<Tagged>& built :
       {build_in_key_order<Tagged>(source.size(), key_at, make, key_of),
        detail::build_in_key_order_with<std::uint64_t, Tagged>(source.size(), key_at, make, key_of)}) {
    ASSERT_EQ(built.size(), expected.size());
    for (std::size_t i = 0; i < built.size(); ++i) {
      ASSERT_EQ(built[i].d, expected[i].d) << i;
      ASSERT_EQ(built[i].tag, expected[i].tag) << i;
    }
  }
}

TEST(BuildInKeyOrder, UniformDigestsAtEverySize) {
  for (std::size_t n : kSizes) expect_built_like_stable_sort(uniform_records(n, 13));
}

TEST(BuildInKeyOrder, SharedLeadingBytesAndRepeatedDigests) {
  for (int shared : {1, 3, 8, 12, 20}) expect_built_like_stable_sort(crowded_records(shared, 17));  // 3+: one bucket
}

}  // namespace
}  // namespace crd::shuffle
