// The greedy set cover of seed 003 §2, on hand-worked postings: which sources, in which order,
// covering how much; the m cut, ties, φ and the foreign rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "crd/quilts/cover.hpp"

namespace crd::quilts {
namespace {

// Mentions of document 1 (server 100): gram g held by 1 and the listed others (server = doc·10),
// ordered as stage 5 delivers them.
struct Fixture {
  std::vector<Mention> mentions;
  void gram(std::uint64_t g, std::vector<std::uint64_t> others) {
    const auto df = static_cast<std::uint32_t>(others.size() + 1);
    for (auto d : others) mentions.push_back({1, g, d, d == 9 ? 100 : d * 10, df});  // doc 9 shares doc 1's server
  }
  Cover cover(const CoverRules& rules) {
    std::sort(mentions.begin(), mentions.end(), [](const Mention& a, const Mention& b) {
      return std::tie(a.gram, a.other) < std::tie(b.gram, b.other);
    });
    return greedy_cover(100, mentions, rules);
  }
};

TEST(QuiltCover, GreedyTakesTheLargestNewCoverFirst) {
  Fixture f;
  for (std::uint64_t g = 1; g <= 6; ++g) f.gram(g, {2});  // doc 2 holds 1..6
  for (std::uint64_t g = 5; g <= 9; ++g) f.gram(g + 100, {3});  // doc 3 holds 5 others
  f.gram(300, {});  // df = 1: not a patch gram (and no mention)
  f.gram(200, {4, 3});
  f.gram(201, {4});
  const auto c = f.cover({50, 0.0, false});
  EXPECT_EQ(c.patch_grams, 13u);
  const std::vector<Source> want{{2, 6}, {3, 6}, {4, 1}};  // 3 has 105..109 and 200: 6
  EXPECT_EQ(c.sources, want);
}

TEST(QuiltCover, MLimitsPatchGramsAndTiesGoToTheSmallerDocument) {
  Fixture f;
  f.gram(1, {7});
  f.gram(2, {5});
  f.gram(3, {2, 3, 4, 5});  // df 5
  EXPECT_EQ(f.cover({4, 0.0, false}).patch_grams, 2u);  // df 5 > m = 4
  const std::vector<Source> at4{{5, 1}, {7, 1}};
  EXPECT_EQ(f.cover({4, 0.0, false}).sources, at4);
  const std::vector<Source> at5{{5, 2}, {7, 1}};
  EXPECT_EQ(f.cover({5, 0.0, false}).sources, at5);
}

TEST(QuiltCover, MinSourceShareStopsBeforeSmallSources) {
  Fixture f;
  for (std::uint64_t g = 0; g < 6; ++g) f.gram(g, {2});
  for (std::uint64_t g = 10; g < 13; ++g) f.gram(g, {3});
  f.gram(20, {4});  // 1 of 10 patch grams
  EXPECT_EQ(f.cover({50, 0.0, false}).sources.size(), 3u);
  const std::vector<Source> share{{2, 6}, {3, 3}};
  EXPECT_EQ(f.cover({50, 0.3, false}).sources, share);  // 3 ≥ 0.3·10, 1 < 3
  EXPECT_EQ(f.cover({50, 0.31, false}).sources, (std::vector<Source>{{2, 6}}));
  EXPECT_TRUE(f.cover({50, 0.61, false}).sources.empty());
  EXPECT_EQ(f.cover({50, 0.61, false}).patch_grams, 10u);
}

TEST(QuiltCover, ForeignSourcesOnly) {
  Fixture f;
  for (std::uint64_t g = 0; g < 5; ++g) f.gram(g, {2});
  f.gram(10, {9});  // 9 lies on the page's own server
  const std::vector<Source> any{{2, 5}, {9, 1}};
  EXPECT_EQ(f.cover({50, 0.0, false}).sources, any);
  const std::vector<Source> foreign{{2, 5}};  // gram 10 stays uncovered, but is still a patch gram
  const auto c = f.cover({50, 0.0, true});
  EXPECT_EQ(c.sources, foreign);
  EXPECT_EQ(c.patch_grams, 6u);
}

}  // namespace
}  // namespace crd::quilts
