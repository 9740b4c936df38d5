// exact_median_mad on 1..4 thread ranks: equal to sorting all values, bit-identical for any rank
// count and distribution, with odd and even counts, ties, empty ranks and no values at all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "crd/comm/local_transport.hpp"
#include "exact_median.hpp"

namespace crd::detect {
namespace {

MedianMad on_ranks(const std::vector<double>& values, int nranks, std::mt19937_64& rng) {
  std::vector<std::vector<double>> shard(static_cast<std::size_t>(nranks));
  for (double v : values) shard[rng() % static_cast<std::size_t>(nranks)].push_back(v);
  std::vector<MedianMad> out(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    const auto r = static_cast<std::size_t>(t.rank());
    out[r] = exact_median_mad(t, shard[r]);
  });
  for (const auto& o : out) {
    EXPECT_EQ(o.median, out[0].median) << "every rank gets the same answer";
    EXPECT_EQ(o.mad, out[0].mad);
  }
  return out[0];
}

double sorted_median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  return (xs[(xs.size() - 1) / 2] + xs[xs.size() / 2]) / 2;
}

TEST(ExactMedian, HandExamples) {
  std::mt19937_64 rng(1);
  for (int nranks = 1; nranks <= 4; ++nranks) {
    const MedianMad odd = on_ranks({0.0, 1.0, 0.5}, nranks, rng);
    EXPECT_EQ(odd.median, 0.5);
    EXPECT_EQ(odd.mad, 0.5);
    const MedianMad even = on_ranks({0.5, 0.75}, nranks, rng);
    EXPECT_EQ(even.median, 0.625);
    EXPECT_EQ(even.mad, 0.125);
    // More than half at 1 (the mirror-heavy case): median 1, MAD 0.
    const MedianMad mirrors = on_ranks({1, 1, 1, 1, 1, 1, 0, 0, 0.25}, nranks, rng);
    EXPECT_EQ(mirrors.median, 1.0);
    EXPECT_EQ(mirrors.mad, 0.0);
    const MedianMad none = on_ranks({}, nranks, rng);
    EXPECT_EQ(none.median, 0.0);
    EXPECT_EQ(none.mad, 0.0);
  }
}

TEST(ExactMedian, RandomValuesMatchSortingForAnyRankCount) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> xs;
    const std::size_t n = 1 + rng() % 200;
    for (std::size_t i = 0; i < n; ++i) {
      // labeled / chunks, as containment is, so ties are common.
      const auto chunks = 1 + rng() % 12;
      xs.push_back(static_cast<double>(rng() % (chunks + 1)) / static_cast<double>(chunks));
    }
    std::vector<double> rounded;
    for (double x : xs) rounded.push_back(static_cast<double>(std::llround(x * 0x1p60)) / 0x1p60);
    const double median = sorted_median(rounded);
    std::vector<double> dev;
    for (double x : rounded) dev.push_back(std::fabs(x - median));
    const MedianMad base = on_ranks(xs, 1, rng);
    EXPECT_EQ(base.median, median) << "trial " << trial;
    EXPECT_DOUBLE_EQ(base.mad, sorted_median(dev)) << "trial " << trial;
    for (int nranks = 2; nranks <= 4; ++nranks) {
      const MedianMad got = on_ranks(xs, nranks, rng);
      EXPECT_EQ(got.median, base.median) << "bit-identical at " << nranks << " ranks";
      EXPECT_EQ(got.mad, base.mad);
    }
  }
}

}  // namespace
}  // namespace crd::detect
