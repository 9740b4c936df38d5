// The greedy set cover of Najork 2012, §2, on hand-worked postings: which sources, in which order,
// covering how much; the m cut, ties, φ and the foreign rule. Then the cover over holder classes
// against a plain gram-by-gram greedy (the paper's, written out naively here) on random postings.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "cover.hpp"

namespace crd::quilts {
namespace {

// Document 1 (server 100) and its patch grams: gram g held by 1 and the listed others (server =
// doc·10, but doc 9 shares doc 1's server).
struct Fixture {
  std::map<std::uint64_t, std::vector<std::uint64_t>> grams;  // gram → other holders
  void gram(std::uint64_t g, std::vector<std::uint64_t> others) { grams[g] = std::move(others); }
  static std::uint64_t server(std::uint64_t d) { return d == 9 ? 100 : d * 10; }

  // The grams grouped into holder classes (equal other-holder sets), as stage 6 delivers them.
  Cover cover(const CoverRules& rules) const {
    std::map<std::set<std::uint64_t>, std::uint64_t> classes;  // others → grams
    for (const auto& [g, others] : grams) ++classes[std::set<std::uint64_t>(others.begin(), others.end())];
    std::set<std::uint64_t> all;
    for (const auto& [set, weight] : classes) all.insert(set.begin(), set.end());
    const std::vector<std::uint64_t> ids(all.begin(), all.end());
    std::vector<HeldClass> held;
    std::vector<OtherHolder> others;
    for (const auto& [set, weight] : classes) {
      const auto cls = static_cast<std::uint32_t>(held.size());
      held.push_back({weight, static_cast<std::uint32_t>(set.size() + 1)});
      for (const auto d : set)
        others.push_back({static_cast<std::uint32_t>(std::lower_bound(ids.begin(), ids.end(), d) - ids.begin()), cls,
                          server(d)});
    }
    std::reverse(others.begin(), others.end());  // any order
    // Two covers with one scratch: the second finds its counters zero again.
    CoverScratch scratch(ids.size());
    const Cover first = greedy_cover(100, held, others, ids, rules, scratch);
    const Cover again = greedy_cover(100, held, others, ids, rules, scratch);
    EXPECT_EQ(again.sources, first.sources);
    return first;
  }

  // The paper's greedy, gram by gram, every gain recomputed every step.
  Cover reference(const CoverRules& rules) const {
    Cover c;
    std::set<std::uint64_t> uncovered, candidates;
    for (const auto& [g, others] : grams)
      if (others.size() + 1 >= 2 && others.size() + 1 <= rules.m) {
        ++c.patch_grams;
        uncovered.insert(g);
        for (const auto d : others)
          if (!(rules.foreign && server(d) == 100)) candidates.insert(d);
      }
    for (;;) {
      std::uint64_t best = 0, best_gain = 0;
      for (const auto d : candidates) {  // ascending: the first of equal gains is the smaller id
        std::uint64_t gain = 0;
        for (const auto g : uncovered) {
          const auto& o = grams.at(g);
          gain += std::find(o.begin(), o.end(), d) != o.end() ? 1 : 0;
        }
        if (gain > best_gain) best = d, best_gain = gain;
      }
      if (best_gain == 0 || static_cast<double>(best_gain) < rules.min_source_share * c.patch_grams) return c;
      for (auto it = uncovered.begin(); it != uncovered.end();) {
        const auto& o = grams.at(*it);
        it = std::find(o.begin(), o.end(), best) != o.end() ? uncovered.erase(it) : std::next(it);
      }
      c.sources.push_back({best, best_gain});
    }
  }
};

TEST(QuiltCover, GreedyTakesTheLargestNewCoverFirst) {
  Fixture f;
  for (std::uint64_t g = 1; g <= 6; ++g) f.gram(g, {2});  // doc 2 holds 1..6
  for (std::uint64_t g = 5; g <= 9; ++g) f.gram(g + 100, {3});  // doc 3 holds 5 others
  f.gram(300, {});  // df = 1: not a patch gram
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

// Random postings with many grams per holder set (copied passages) and many ties: the class
// cover equals the gram-by-gram greedy — the same sources, in the same order, with the same gains.
TEST(QuiltCover, ClassesGiveTheGramByGramCover) {
  std::mt19937_64 rng(31);
  int with_sources = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Fixture f;
    const int passages = 1 + static_cast<int>(rng() % 12);
    std::uint64_t g = 0;
    for (int p = 0; p < passages; ++p) {
      std::vector<std::uint64_t> others;
      const int df = static_cast<int>(rng() % 7);
      for (int i = 0; i < df; ++i) {
        const std::uint64_t d = 2 + rng() % 9;  // docs 2..10 (9 on the page's server)
        if (std::find(others.begin(), others.end(), d) == others.end()) others.push_back(d);
      }
      const int length = 1 + static_cast<int>(rng() % 5);
      for (int i = 0; i < length; ++i) f.gram(g++, others);
    }
    for (const std::uint32_t m : {2u, 3u, 5u, 50u})
      for (const double phi : {0.0, 0.15})
        for (const bool foreign : {false, true}) {
          SCOPED_TRACE(testing::Message() << "trial " << trial << " m " << m << " phi " << phi << " foreign " << foreign);
          const CoverRules rules{m, phi, foreign};
          const Cover want = f.reference(rules);
          const Cover got = f.cover(rules);
          EXPECT_EQ(got.patch_grams, want.patch_grams);
          EXPECT_EQ(got.sources, want.sources);
          with_sources += want.sources.size() >= 2 ? 1 : 0;
        }
  }
  EXPECT_GT(with_sources, 1000);  // the cases exercise real covers, not empty ones
}

}  // namespace
}  // namespace crd::quilts
