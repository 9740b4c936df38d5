// quilts' radix sort against std::stable_sort: above and below its 4096-record cutoff, with keys
// sharing low digits and repeated keys, which must keep their order (stage 4 relies on it).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "radix_sort.hpp"

namespace crd::quilts {
namespace {

struct Rec {
  std::uint64_t key;
  std::uint32_t seq;
};

TEST(QuiltRadixSort, SortsByKeyStably) {
  std::mt19937_64 rng(7);
  for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{4095}, std::size_t{4096}, std::size_t{100000}}) {
    SCOPED_TRACE(n);
    std::vector<Rec> v;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t k = rng();
      if (i % 3 == 0) k &= 0xFFFF0000FFFF0000ull;  // digits of zeros
      if (i % 5 == 0 && i > 0) k = v[i / 2].key;   // repeats
      v.push_back({k, static_cast<std::uint32_t>(i)});
    }
    auto want = v;
    std::stable_sort(want.begin(), want.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
    radix_sort_by(v, [](const Rec& r) { return r.key; });
    ASSERT_EQ(v.size(), want.size());
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(v[i].key, want[i].key) << i;
      EXPECT_EQ(v[i].seq, want[i].seq) << i;
    }
  }
}

}  // namespace
}  // namespace crd::quilts
