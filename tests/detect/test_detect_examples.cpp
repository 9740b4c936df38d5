// detect on hand-computed examples, for every rank count 1..4 and many distributions of the pages:
// badness by pages vs by chunks, auto and fixed thresholds, min_labeled, label provenance.
#include <gtest/gtest.h>

#include <cmath>

#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

using testing::World;

// Chunk 0 → label 0, chunk 1 → label 1, chunks 2…6 unlabeled, chunk 7 a stop chunk.
//   h/a/p1: 0 2 1 3        chunks 4, labeled 2, containment 0.5
//   h/a/p2: 0              chunks 1, labeled 1, containment 1
//   h/p3:   2 3 4 5 6      chunks 5, labeled 0, containment 0
//   h/b/p4: 7              no chunk after stop removal: no page row, no h/b neighborhood
// Neighborhoods: h (3 pages, 10 chunks, 3 labeled), h/a (2 pages, 5 chunks, 3 labeled).
World small_world() {
  World w;
  w.labels = 2;
  w.label_of = {0, 1, kNoLabel, kNoLabel, kNoLabel, kNoLabel, kNoLabel, kNoLabel};
  w.is_stop = {0, 0, 0, 0, 0, 0, 0, 1};
  w.pages = {{"h/a/p1", {0, 2, 1, 3}, 0}, {"h/a/p2", {0}, 0}, {"h/p3", {2, 3, 4, 5, 6}, 0}, {"h/b/p4", {7}, 0}};
  return w;
}

// Runs `check` for every way of putting the pages on nranks ranks (random ones for 4 ranks).
template <class Check>
void for_each_distribution(World w, const DetectOptions& options, const Check& check) {
  std::mt19937_64 rng(99);
  for (int nranks = 1; nranks <= 4; ++nranks) {
    std::size_t combos = 1;
    for (std::size_t i = 0; i < w.pages.size(); ++i) combos *= static_cast<std::size_t>(nranks);
    const std::size_t runs = std::min<std::size_t>(combos, 40);
    for (std::size_t c = 0; c < runs; ++c) {
      std::size_t code = combos <= 40 ? c : static_cast<std::size_t>(rng() % combos);
      for (auto& p : w.pages) {
        p.rank = static_cast<int>(code % static_cast<std::size_t>(nranks));
        code /= static_cast<std::size_t>(nranks);
      }
      SCOPED_TRACE("nranks " + std::to_string(nranks) + " distribution " + std::to_string(c));
      check(testing::run_detect(w, nranks, options, 64, testing::slice_firsts(w.labels, nranks, &rng)));
    }
  }
}

TEST(DetectExample, BadnessByPagesAutoThresholds) {
  DetectOptions options;  // auto, pages
  for_each_distribution(small_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const DetectionStats& s = out[0].result.stats;
    EXPECT_EQ(s.pages, 3u);
    EXPECT_EQ(s.page_mean, 0.5);
    EXPECT_NEAR(s.page_sigma, std::sqrt(1.0 / 6.0), 1e-15);
    EXPECT_EQ(s.page_threshold, s.page_mean + s.page_sigma);
    EXPECT_EQ(s.flagged_pages, 1u);
    const auto pages = testing::all_pages(out);
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[0].url, "h/a/p1");
    EXPECT_EQ(pages[0].chunks, 4u);
    EXPECT_EQ(pages[0].labeled, 2u);
    EXPECT_EQ(pages[0].containment, 0.5);
    EXPECT_EQ(pages[0].positions, (std::vector<std::uint32_t>{0, 2}));
    EXPECT_EQ(pages[0].label_ids, (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(pages[0].flagged, 0);
    EXPECT_EQ(pages[1].url, "h/a/p2");
    EXPECT_EQ(pages[1].containment, 1.0);
    EXPECT_EQ(pages[1].flagged, 1);
    EXPECT_EQ(pages[2].url, "h/p3");
    EXPECT_EQ(pages[2].chunks, 5u);
    EXPECT_EQ(pages[2].containment, 0.0);
    EXPECT_EQ(pages[2].flagged, 0);

    // Badness by pages: h = (0.5 + 1 + 0) / 3, h/a = (0.5 + 1) / 2. Mean 0.625, σ 0.125, so the
    // auto threshold is exactly 0.75 and h/a (badness 0.75) is not flagged: the test is strict.
    const auto hoods = testing::all_neighborhoods(out);
    ASSERT_EQ(hoods.size(), 2u);
    EXPECT_EQ(hoods[0].prefix, "h");
    EXPECT_EQ(hoods[0].depth, 0u);
    EXPECT_EQ(hoods[0].pages, 3u);
    EXPECT_EQ(hoods[0].chunks, 10u);
    EXPECT_EQ(hoods[0].labeled, 3u);
    EXPECT_EQ(hoods[0].badness, 0.5);
    EXPECT_EQ(hoods[1].prefix, "h/a");
    EXPECT_EQ(hoods[1].depth, 1u);
    EXPECT_EQ(hoods[1].pages, 2u);
    EXPECT_EQ(hoods[1].chunks, 5u);
    EXPECT_EQ(hoods[1].labeled, 3u);
    EXPECT_EQ(hoods[1].badness, 0.75);
    EXPECT_EQ(s.neighborhood_mean, 0.625);
    EXPECT_EQ(s.neighborhood_sigma, 0.125);
    EXPECT_EQ(s.neighborhood_threshold, 0.75);
    EXPECT_EQ(hoods[0].flagged + hoods[1].flagged, 0);
    EXPECT_EQ(s.flagged_neighborhoods, 0u);
  });
}

TEST(DetectExample, BadnessByChunksFixedThresholds) {
  DetectOptions options;
  options.badness = BadnessMode::Chunks;
  options.page_threshold = {false, 0.4};
  options.neighborhood_threshold = {false, 0.5};
  for_each_distribution(small_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const DetectionStats& s = out[0].result.stats;
    EXPECT_EQ(s.page_threshold, 0.4);
    EXPECT_EQ(s.flagged_pages, 2u);  // 0.5 and 1.0
    const auto hoods = testing::all_neighborhoods(out);
    ASSERT_EQ(hoods.size(), 2u);
    // Badness by chunks: h = 3/10, h/a = 3/5.
    EXPECT_EQ(hoods[0].badness, 0.3);
    EXPECT_EQ(hoods[1].badness, 0.6);
    EXPECT_EQ(hoods[0].flagged, 0);
    EXPECT_EQ(hoods[1].flagged, 1);
    EXPECT_EQ(s.neighborhood_threshold, 0.5);
    EXPECT_NEAR(s.neighborhood_mean, 0.45, 1e-15);
    EXPECT_NEAR(s.neighborhood_sigma, 0.15, 1e-15);
    EXPECT_EQ(s.flagged_neighborhoods, 1u);
  });
}

// More than half the pages have containment 1 (an informed run over a mirror-heavy crawl).
// Mirrors m1, m2, m3 (two pages each, every chunk labeled), c1 (one page, nothing labeled), c2 (one
// page with nothing labeled, one with 1 of 4). Pages: six at 1, two at 0, one at 0.25: mean 0.694,
// σ 0.437, mean + σ = 1.13. Neighborhoods (the hosts): 1, 1, 1, 0, 0.125: mean + σ = 1.086. Unclamped,
// nothing would be flagged; clamped, exactly the mirror pages and hosts are.
World mirror_world() {
  World w;
  w.labels = 3;
  w.label_of = {0, 1, 2, kNoLabel, kNoLabel, kNoLabel};
  w.is_stop = {0, 0, 0, 0, 0, 0};
  for (const char* host : {"m1", "m2", "m3"})
    for (const char* page : {"/a", "/b"}) w.pages.push_back({std::string(host) + page, {0, 1, 2}, 0});
  w.pages.push_back({"c1/x", {3, 4}, 0});
  w.pages.push_back({"c2/x", {3, 5}, 0});
  w.pages.push_back({"c2/y", {0, 3, 4, 5}, 0});
  return w;
}

void expect_only_mirrors_flagged(const std::vector<testing::RankOutput>& out) {
  const DetectionStats& s = out[0].result.stats;
  EXPECT_EQ(s.page_threshold, Threshold::kClampedThreshold);
  EXPECT_EQ(s.page_threshold_clamped, 1);
  EXPECT_EQ(s.neighborhood_threshold, Threshold::kClampedThreshold);
  EXPECT_EQ(s.neighborhood_threshold_clamped, 1);
  std::vector<std::string> flagged;
  for (const auto& p : testing::all_pages(out))
    if (p.flagged != 0) flagged.push_back(p.url);
  EXPECT_EQ(flagged, (std::vector<std::string>{"m1/a", "m1/b", "m2/a", "m2/b", "m3/a", "m3/b"}));
  flagged.clear();
  for (const auto& n : testing::all_neighborhoods(out))
    if (n.flagged != 0) flagged.push_back(n.prefix);
  EXPECT_EQ(flagged, (std::vector<std::string>{"m1", "m2", "m3"}));
  EXPECT_EQ(s.flagged_pages, 6u);
  EXPECT_EQ(s.flagged_neighborhoods, 3u);
}

TEST(DetectExample, AutoThresholdAboveOneIsClampedSoFullyLabeledPagesAreFlagged) {
  DetectOptions options;  // auto
  for_each_distribution(mirror_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const DetectionStats& s = out[0].result.stats;
    EXPECT_NEAR(s.page_mean, 6.25 / 9, 1e-15);
    EXPECT_GT(s.page_mean + s.page_sigma, 1.0) << "the failing case: mean + σ above 1";
    EXPECT_GT(s.neighborhood_mean + s.neighborhood_sigma, 1.0);
    expect_only_mirrors_flagged(out);
  });
}

TEST(DetectExample, RobustThresholdIsClampedTooAndRecordsMedianAndMad) {
  DetectOptions options;
  options.page_threshold = Threshold::parse("robust", "page-threshold");
  options.neighborhood_threshold = Threshold::parse("robust:1", "neighborhood-threshold");
  for_each_distribution(mirror_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const DetectionStats& s = out[0].result.stats;
    // Pages: median 1; |x − 1| = six 0s, 1, 1, 0.75: MAD 0. Hosts: median 1, MAD 0.
    EXPECT_EQ(s.page_median, 1.0);
    EXPECT_EQ(s.page_mad, 0.0);
    EXPECT_EQ(s.neighborhood_median, 1.0);
    EXPECT_EQ(s.neighborhood_mad, 0.0);
    expect_only_mirrors_flagged(out);
  });
}

TEST(DetectExample, RobustThresholdOnAMostlyCleanCorpus) {
  // small_world: pages 0.5, 1, 0 (median 0.5, MAD 0.5); neighborhoods 0.5, 0.75 (an even count:
  // median 0.625, MAD 0.125). robust:0.1 → pages 0.5 + 0.1·1.4826·0.5 = 0.57413: only h/a/p2;
  // robust:0.5 → neighborhoods 0.625 + 0.5·1.4826·0.125 = 0.7176: only h/a.
  DetectOptions options;
  options.page_threshold = Threshold::parse("robust:0.1", "page-threshold");
  options.neighborhood_threshold = Threshold::parse("robust:0.5", "neighborhood-threshold");
  for_each_distribution(small_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const DetectionStats& s = out[0].result.stats;
    EXPECT_EQ(s.page_median, 0.5);
    EXPECT_EQ(s.page_mad, 0.5);
    EXPECT_DOUBLE_EQ(s.page_threshold, 0.5 + 0.1 * 1.4826 * 0.5);
    EXPECT_EQ(s.page_threshold_clamped, 0);
    EXPECT_EQ(s.neighborhood_median, 0.625);
    EXPECT_EQ(s.neighborhood_mad, 0.125);
    EXPECT_DOUBLE_EQ(s.neighborhood_threshold, 0.625 + 0.5 * 1.4826 * 0.125);
    const auto pages = testing::all_pages(out);
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[0].flagged + pages[1].flagged * 2 + pages[2].flagged * 4, 2) << "only h/a/p2";
    const auto hoods = testing::all_neighborhoods(out);
    ASSERT_EQ(hoods.size(), 2u);
    EXPECT_EQ(hoods[0].flagged, 0);
    EXPECT_EQ(hoods[1].flagged, 1);
  });
}

TEST(DetectExample, FixedThresholdAtOneIsNotClamped) {
  DetectOptions options;
  options.page_threshold = {false, 1.0};
  for_each_distribution(mirror_world(), options, [](const std::vector<testing::RankOutput>& out) {
    EXPECT_EQ(out[0].result.stats.page_threshold, 1.0);
    EXPECT_EQ(out[0].result.stats.page_threshold_clamped, 0);
    EXPECT_EQ(out[0].result.stats.flagged_pages, 0u) << "a fixed threshold is taken as given";
  });
}

// --min-neighborhood-labeled (paper §8.1: neighborhoods duplicating more than 1,000 chunks).
// small_world, fixed threshold 0.4, badness pages: h 0.5 (3 labeled), h/a 0.75 (3 labeled).
TEST(DetectExample, MinNeighborhoodLabeled) {
  for (std::uint64_t min : {0u, 3u, 4u}) {
    DetectOptions options;
    options.neighborhood_threshold = {false, 0.4};
    options.min_neighborhood_labeled = min;
    for_each_distribution(small_world(), options, [min](const std::vector<testing::RankOutput>& out) {
      const auto hoods = testing::all_neighborhoods(out);
      ASSERT_EQ(hoods.size(), 2u);
      const std::uint8_t want = min <= 3 ? 1 : 0;
      EXPECT_EQ(hoods[0].flagged, want) << "h, min " << min;
      EXPECT_EQ(hoods[1].flagged, want) << "h/a, min " << min;
      EXPECT_EQ(out[0].result.stats.flagged_neighborhoods, want * 2u);
      EXPECT_EQ(out[0].result.stats.neighborhood_threshold, 0.4) << "statistics ignore the minimum";
    });
  }
}

TEST(DetectExample, MinLabeled) {
  DetectOptions options;
  options.page_threshold = {false, 0.4};
  options.min_labeled = 2;  // h/a/p2 has containment 1 but only one labeled chunk
  for_each_distribution(small_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const auto pages = testing::all_pages(out);
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[0].flagged, 1);
    EXPECT_EQ(pages[1].flagged, 0);
    EXPECT_EQ(out[0].result.stats.flagged_pages, 1u);
  });
}

TEST(DetectExample, MaxDepthZeroKeepsHostsOnly) {
  DetectOptions options;
  options.max_neighborhood_depth = 0;
  for_each_distribution(small_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const auto hoods = testing::all_neighborhoods(out);
    ASSERT_EQ(hoods.size(), 1u);
    EXPECT_EQ(hoods[0].prefix, "h");
    EXPECT_EQ(out[0].result.stats.neighborhood_sigma, 0.0);
    EXPECT_EQ(hoods[0].flagged, 0) << "a single neighborhood is never above mean + 0";
  });
}

// Chunk 0 → label 0, chunk 1 → label 1, chunk 3 → label 2 (never on a page), chunk 2 unlabeled.
World provenance_world() {
  World w;
  w.labels = 3;
  w.label_of = {0, 1, kNoLabel, 2};
  w.is_stop = {0, 0, 0, 0};
  w.pages = {{"b.org/x/1", {0, 0, 1}, 0},
             {"a.org/2", {0}, 0},
             {"c.org/y/z/3", {0, 1}, 0},
             {"a.org/y/4", {1}, 0},
             {"d.org/5", {2}, 0}};
  return w;
}

TEST(DetectExample, LabelProvenance) {
  DetectOptions options;
  options.provenance_samples = 2;
  for_each_distribution(provenance_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const auto use = testing::all_label_use(out);
    ASSERT_EQ(use.size(), 3u);
    EXPECT_EQ(use[0].occurrences, 4u);
    EXPECT_EQ(use[0].pages, 3u);
    EXPECT_EQ(use[0].neighborhoods, 6u);  // b.org b.org/x a.org c.org c.org/y c.org/y/z
    EXPECT_EQ(use[0].sample_urls, (std::vector<std::string>{"a.org/2", "b.org/x/1"}));
    EXPECT_EQ(use[1].occurrences, 3u);
    EXPECT_EQ(use[1].pages, 3u);
    EXPECT_EQ(use[1].neighborhoods, 7u);  // … plus a.org/y
    EXPECT_EQ(use[1].sample_urls, (std::vector<std::string>{"a.org/y/4", "b.org/x/1"}));
    EXPECT_EQ(use[2].occurrences, 0u);
    EXPECT_EQ(use[2].pages, 0u);
    EXPECT_EQ(use[2].neighborhoods, 0u);
    EXPECT_TRUE(use[2].sample_urls.empty());
  });
  options.provenance_samples = 0;
  options.max_neighborhood_depth = 0;
  for_each_distribution(provenance_world(), options, [](const std::vector<testing::RankOutput>& out) {
    const auto use = testing::all_label_use(out);
    ASSERT_EQ(use.size(), 3u);
    EXPECT_EQ(use[0].neighborhoods, 3u);
    EXPECT_EQ(use[1].neighborhoods, 3u);
    EXPECT_EQ(use[0].occurrences, 4u);
    for (const auto& u : use) EXPECT_TRUE(u.sample_urls.empty());
  });
}

}  // namespace
}  // namespace crd::detect
