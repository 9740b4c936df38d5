// text::shingles against its definition (shingles.hpp); its values against the independent
// reference are checked in tests/neardup/test_sketch.cpp (reference_sketch.py's vectors).
#include <gtest/gtest.h>

#include <algorithm>
#include <span>

#include "crd/text/fingerprint.hpp"
#include "crd/text/shingles.hpp"

namespace crd::text {
namespace {

// shingles() computes all shingles a token position at a time (vectorized); each must still be the
// documented chain, for every length around the vector width and every k up to past the length.
TEST(Shingles, AreTheChainOfTheirTokens) {
  std::vector<std::uint64_t> tokens;
  for (std::uint64_t t = 0; t < 70; ++t) tokens.push_back(mix64(t * 7919));
  for (std::size_t n = 0; n <= tokens.size(); ++n) {
    const std::span<const std::uint64_t> some(tokens.data(), n);
    for (std::uint32_t k = 1; k <= 20; ++k) {
      const auto sh = shingles(some, k);
      const std::size_t width = std::min<std::size_t>(k, n);
      ASSERT_EQ(sh.size(), n == 0 ? 0 : n - width + 1) << n << " " << k;
      for (std::size_t i = 0; i < sh.size(); ++i) {
        std::uint64_t h = seed(Domain::Shingle, 0);
        for (std::size_t j = i; j < i + width; ++j) h = mix64(h ^ tokens[j]);
        ASSERT_EQ(sh[i], h) << n << " " << k << " " << i;
      }
    }
  }
}

TEST(Shingles, IntoAReusedBufferEqualTheReturnedOnes) {
  std::vector<std::uint64_t> tokens;
  for (std::uint64_t t = 0; t < 40; ++t) tokens.push_back(mix64(t));
  std::vector<std::uint64_t> out(100, 7);  // stale contents and a larger size are replaced
  shingles(tokens, 8, out);
  EXPECT_EQ(out, shingles(tokens, 8));
  shingles({}, 8, out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace crd::text
