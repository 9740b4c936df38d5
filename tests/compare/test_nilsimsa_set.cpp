// NilsimsaSet::best against the highest nilsimsa_compare over every digest, for both kernels (the
// portable loop and, where the CPU has it, the AVX-512 one), at sizes around the vector width.
#include <gtest/gtest.h>

#include <random>

#include "nilsimsa_set.hpp"

namespace crd::compare {
namespace {

int scan_best(const NilsimsaDigest& q, const std::vector<NilsimsaDigest>& set) {
  int best = -129;
  for (const auto& d : set) best = std::max(best, nilsimsa_compare(q, d));
  return best;
}

TEST(NilsimsaSet, BestEqualsScanForEveryKernelAndSize) {
  std::mt19937 rng(3);
  std::vector<NilsimsaDigest> all(1000);
  for (auto& d : all)
    for (auto& b : d) b = static_cast<std::uint8_t>(rng());
  // Real digests too, and near copies (a few bits flipped) so the best is high.
  for (int i = 0; i < 40; ++i)
    all[static_cast<std::size_t>(i)] = nilsimsa("label text number " + std::to_string(i * 977));
  for (const std::size_t n : {0, 1, 7, 8, 9, 15, 17, 1000}) {
    const std::vector<NilsimsaDigest> set(all.begin(), all.begin() + static_cast<long>(n));
    const NilsimsaSet fast(set), portable(set, false);
    ASSERT_EQ(fast.size(), n);
    for (int k = 0; k < 60; ++k) {
      NilsimsaDigest q = all[rng() % all.size()];
      for (int flips = static_cast<int>(rng() % 20); flips > 0; --flips)
        q[rng() % 32] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      if (k % 10 == 0) q = {};  // all zero
      if (k % 10 == 1) q.fill(0xFF);
      const int want = scan_best(q, set);
      ASSERT_EQ(fast.best(q), want) << n;
      ASSERT_EQ(portable.best(q), want) << n;
    }
  }
  EXPECT_EQ(NilsimsaSet({}).best(all[0]), -129);
  EXPECT_EQ(NilsimsaSet({all[5]}).best(all[5]), 128);
}

}  // namespace
}  // namespace crd::compare
