// The greedy set cover of seed 003 §2, on hand-worked postings: which sources, in which order,
// covering how much; the m cut, ties, φ and the foreign rule.
#include <gtest/gtest.h>

#include "crd/quilts/cover.hpp"

namespace crd::quilts {
namespace {

// Postings of document 1 (server 100): gram g held by 1 and the listed others (server = doc·10).
struct Fixture {
  std::vector<Posting> postings;
  void gram(std::uint64_t g, std::vector<std::uint64_t> others) {
    Posting p{g, {{1, 100}}};
    for (auto d : others) p.holders.push_back({d, d == 9 ? 100 : d * 10});  // doc 9 shares doc 1's server
    std::sort(p.holders.begin(), p.holders.end());
    postings.push_back(p);
  }
  Cover cover(const CoverRules& rules) const {
    std::vector<const Posting*> ptrs;
    for (const auto& p : postings) ptrs.push_back(&p);
    return greedy_cover(1, 100, ptrs, rules);
  }
};

TEST(QuiltCover, GreedyTakesTheLargestNewCoverFirst) {
  Fixture f;
  for (std::uint64_t g = 1; g <= 6; ++g) f.gram(g, {2});  // doc 2 holds 1..6
  for (std::uint64_t g = 5; g <= 9; ++g) f.gram(g + 100, {3});  // doc 3 holds 5 others
  f.gram(3, {});  // df = 1: not a patch gram (a gram twice in postings only once in real use)
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
