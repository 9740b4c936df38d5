// ExactMoments: accuracy against a long-double two-pass reference, bit-identical results for any
// split/order/grouping, and the degenerate cases (no values, one value, all values equal).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "exact_moments.hpp"

namespace crd::detect {
namespace {

struct TwoPass {
  long double mean = 0;
  long double sigma = 0;
};

TwoPass two_pass(const std::vector<double>& xs) {
  TwoPass r;
  if (xs.empty()) return r;
  for (double x : xs) r.mean += x;
  r.mean /= static_cast<long double>(xs.size());
  long double ss = 0;
  for (double x : xs) ss += (x - r.mean) * (x - r.mean);
  r.sigma = std::sqrt(ss / static_cast<long double>(xs.size()));
  return r;
}

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

ExactMoments of(const std::vector<double>& xs) {
  ExactMoments m;
  for (double x : xs) m.add(x);
  return m;
}

std::vector<double> containments(std::mt19937_64& rng, std::size_t n) {
  // Values like the pipeline's: labeled / chunks.
  std::vector<double> xs;
  for (std::size_t i = 0; i < n; ++i) {
    const auto chunks = 1 + rng() % 200;
    xs.push_back(static_cast<double>(rng() % (chunks + 1)) / static_cast<double>(chunks));
  }
  return xs;
}

TEST(ExactMoments, MatchesTwoPassReference) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t n : {2u, 3u, 10u, 1000u, 100000u}) {
    std::vector<double> xs;
    for (std::size_t i = 0; i < n; ++i) xs.push_back(i % 2 ? u(rng) : u(rng) * u(rng));
    const ExactMoments m = of(xs);
    const TwoPass ref = two_pass(xs);
    EXPECT_EQ(m.count(), n);
    EXPECT_NEAR(m.mean(), static_cast<double>(ref.mean), 1e-15) << n;
    EXPECT_NEAR(m.sigma(), static_cast<double>(ref.sigma), 1e-12) << n;
  }
  const std::vector<double> ratios = containments(rng, 5000);
  const TwoPass ref = two_pass(ratios);
  EXPECT_NEAR(of(ratios).mean(), static_cast<double>(ref.mean), 1e-15);
  EXPECT_NEAR(of(ratios).sigma(), static_cast<double>(ref.sigma), 1e-12);
}

TEST(ExactMoments, HandComputed) {
  // 0, 0.5, 1: mean 0.5, population variance 1/6.
  const ExactMoments m = of({0.0, 0.5, 1.0});
  EXPECT_EQ(m.mean(), 0.5);
  EXPECT_NEAR(m.sigma(), std::sqrt(1.0 / 6.0), 1e-15);
  // 0.5, 0.75: exact in binary, σ = 0.125 exactly.
  const ExactMoments two = of({0.5, 0.75});
  EXPECT_EQ(two.mean(), 0.625);
  EXPECT_EQ(two.sigma(), 0.125);
}

TEST(ExactMoments, IdenticalBitsForAnySplitOrderAndGrouping) {
  std::mt19937_64 rng(17);
  std::vector<double> xs = containments(rng, 3001);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 1000; ++i) xs.push_back(u(rng));
  const ExactMoments whole = of(xs);
  std::vector<std::uint64_t> whole_words;
  whole.encode(whole_words);
  for (int trial = 0; trial < 20; ++trial) {
    std::shuffle(xs.begin(), xs.end(), rng);
    const int parts = 1 + static_cast<int>(rng() % 7);
    std::vector<ExactMoments> partial(static_cast<std::size_t>(parts));
    for (double x : xs) partial[rng() % partial.size()].add(x);
    // Merge left to right, and as a tree in reverse order, and through encode/decode.
    ExactMoments left;
    for (const auto& p : partial) left.merge(p);
    std::vector<ExactMoments> level(partial.rbegin(), partial.rend());
    while (level.size() > 1) {
      std::vector<ExactMoments> next;
      for (std::size_t i = 0; i < level.size(); i += 2) {
        ExactMoments m = level[i];
        if (i + 1 < level.size()) m.merge(level[i + 1]);
        next.push_back(m);
      }
      level = next;
    }
    ExactMoments wire;
    for (const auto& p : partial) {
      std::vector<std::uint64_t> words;
      p.encode(words);
      ASSERT_EQ(words.size(), ExactMoments::kWords);
      wire.merge(ExactMoments::decode(words));
    }
    for (const ExactMoments* m : {&left, &level[0], &wire}) {
      EXPECT_EQ(m->count(), whole.count());
      EXPECT_EQ(bits(m->mean()), bits(whole.mean()));
      EXPECT_EQ(bits(m->sigma()), bits(whole.sigma()));
      std::vector<std::uint64_t> words;
      m->encode(words);
      EXPECT_EQ(words, whole_words);
    }
  }
}

TEST(ExactMoments, CountZeroAndOne) {
  const ExactMoments none;
  EXPECT_EQ(none.count(), 0u);
  EXPECT_EQ(none.mean(), 0.0);
  EXPECT_EQ(none.sigma(), 0.0);
  for (double x : {0.0, 0.3, 0.5, 1.0 / 3.0, 1.0}) {
    const ExactMoments one = of({x});
    EXPECT_EQ(one.count(), 1u);
    EXPECT_EQ(one.mean(), x) << "x ≥ 2^-8 survives the 2^-60 grid exactly";
    EXPECT_EQ(one.sigma(), 0.0);
  }
}

TEST(ExactMoments, ClampsToUnitInterval) {
  const ExactMoments m = of({-0.5, 2.0});
  EXPECT_EQ(m.mean(), 0.5);
  EXPECT_EQ(m.sigma(), 0.5);
  EXPECT_EQ(ExactMoments::to_fixed(-1), 0u);
  EXPECT_EQ(ExactMoments::to_fixed(1), std::uint64_t{1} << 60);
  EXPECT_EQ(ExactMoments::to_fixed(7), std::uint64_t{1} << 60);
  EXPECT_EQ(ExactMoments::from_fixed(uint128{3} << 59, 3), 0.5);
  EXPECT_EQ(ExactMoments::from_fixed(12345, 0), 0.0);
}

// Values that are all equal have σ exactly 0, so the auto threshold mean + σ equals the common
// value. Rounding the squares (an earlier version) gave σ ≈ 3e-10 for x = 1/3; the exact
// n·Σf² − (Σf)² cannot.
TEST(ExactMoments, AllEqualValuesHaveSigmaExactlyZero) {
  for (double x : {0.0, 0.5, 1.0, 0.25, 0.3, 0.1, 1.0 / 3.0, 0.7, 2.0 / 7.0, 0.123456789}) {
    for (std::size_t n : {2u, 3u, 7u, 1000u}) {
      const ExactMoments m = of(std::vector<double>(n, x));
      EXPECT_EQ(m.mean(), x) << "x=" << x << " n=" << n;
      EXPECT_EQ(m.sigma(), 0.0) << "x=" << x << " n=" << n;
    }
  }
}

}  // namespace
}  // namespace crd::detect
