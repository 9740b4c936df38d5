// sort_hashes against std::sort: below its 512-value cut (std::sort itself), above it (by leading
// byte into the scratch array, then each range), with repeats and a reused scratch buffer.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "crd/text/fingerprint.hpp"
#include "crd/text/sort_hashes.hpp"

namespace crd::text {
namespace {

TEST(SortHashes, EqualsStdSortOnEverySizeAroundTheCut) {
  std::vector<std::uint64_t> scratch;
  for (const std::size_t n : {0, 1, 2, 511, 512, 513, 5000}) {
    std::vector<std::uint64_t> v;
    for (std::uint64_t i = 0; i < n; ++i) v.push_back(mix64(i % 300));  // repeats from 300 on
    v.push_back(0);
    v.push_back(~std::uint64_t{0});
    std::vector<std::uint64_t> want = v;
    std::sort(want.begin(), want.end());
    std::vector<std::uint64_t> fresh = v;
    sort_hashes(fresh);
    EXPECT_EQ(fresh, want) << n;
    sort_hashes(v, scratch);
    EXPECT_EQ(v, want) << n;
  }
}

}  // namespace
}  // namespace crd::text
