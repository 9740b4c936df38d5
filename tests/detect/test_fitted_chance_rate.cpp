// --page-threshold binomial:fit (docs/winnow.md, "A chance rate measured from the crawl"): the chance
// rate R measured from the crawl's own page containments (median + 3 · 1.4826 · MAD, never below
// the fixed 1 %, at most 1/2), parsing, and detect() on a crawl where a common phrase is in every
// page: the fixed rate flags every page, the fitted one only the edited copies, at 1 and 2 ranks.
#include <gtest/gtest.h>

#include <string>

#include "crd/base/error.hpp"
#include "crd/detect/chance_floor.hpp"
#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

TEST(FittedChanceRate, ParsesAndPrintsTheRule) {
  const Threshold f = Threshold::parse("binomial:fit", "page-threshold");
  EXPECT_TRUE(f.binomial);
  EXPECT_TRUE(f.fitted);
  EXPECT_FALSE(f.automatic);
  EXPECT_EQ(f.value, Threshold::kDefaultChanceRate) << "the floor of the fitted rate";
  EXPECT_EQ(f.alpha, Threshold::kDefaultChanceAlpha);
  EXPECT_EQ(f.to_string(), "binomial:fit:0.0001");
  EXPECT_EQ(Threshold::parse(f.to_string(), "x").to_string(), f.to_string());
  EXPECT_EQ(Threshold::parse("binomial:fit:0.001", "x").alpha, 0.001);
  EXPECT_FALSE(Threshold::parse("binomial", "x").fitted);
  for (const char* bad : {"binomial:fit:", "binomial:fit:0.5", "binomial:fit:0", "binomial:fitx", "binomial:fit:0.1:2"})
    EXPECT_THROW(Threshold::parse(bad, "page-threshold"), UsageError) << bad;
}

TEST(FittedChanceRate, ResolvesFromTheMedianAndMadAboveTheFixedRate) {
  const Threshold f = Threshold::parse("binomial:fit", "page-threshold");
  // Most unrelated pages share no gram: median and MAD 0, so the fixed 1 %.
  EXPECT_EQ(f.resolve({0.002, 0.01, 0, 0}).value, 0.01);
  const ResolvedThreshold r = f.resolve({0.3, 0.05, 0.3, 0.02});
  EXPECT_DOUBLE_EQ(r.value, 0.3 + 3 * 1.4826 * 0.02);
  EXPECT_FALSE(r.clamped);
  const ResolvedThreshold c = f.resolve({0.45, 0.1, 0.45, 0.1});
  EXPECT_EQ(c.value, Threshold::kMaxFittedRate);
  EXPECT_TRUE(c.clamped);
}

// Labels 0 … 999 are the site's grams; 0 … 3 are also a common phrase that every page of the crawl
// holds (a license line, a template sentence): 4 of a short page's 12–16 grams.
TEST(FittedChanceRate, CommonPhraseInEveryPageIsNotCopyingAnEditedCopyIs) {
  testing::PhraseWorld crawl;
  for (int i = 0; i < 300; ++i)
    crawl.page("bg" + std::to_string(i % 7) + ".example/p" + std::to_string(i), 0, 0, 8 + i % 5);
  // Edited copies: 100 of their 146 other grams still the site's (an edit costs K grams).
  for (int i = 0; i < 10; ++i)
    crawl.page("copy.example/p" + std::to_string(i), 10 + 50 * static_cast<std::uint32_t>(i), 100, 46);
  testing::World w = crawl.world();

  std::vector<PageRow> first;
  double first_rate = 0;
  for (int nranks : {1, 2}) {
    SCOPED_TRACE("ranks " + std::to_string(nranks));
    testing::spread_pages(w, nranks);
    DetectOptions o;
    o.max_neighborhood_depth = 0;
    o.page_threshold = Threshold::parse("binomial", "page-threshold");
    std::uint64_t fixed_flagged = 0;
    for (const PageRow& p :
         testing::all_pages(testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks))))
      fixed_flagged += p.flagged;
    EXPECT_EQ(fixed_flagged, w.pages.size()) << "at R = 1 %, 4 common grams of 12–16 are not chance";

    o.page_threshold = Threshold::parse("binomial:fit", "page-threshold");
    const auto out = testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks));
    const auto pages = testing::all_pages(out);
    ASSERT_EQ(pages.size(), w.pages.size());
    for (const PageRow& p : pages) EXPECT_EQ(p.flagged, p.url.rfind("copy.example/", 0) == 0 ? 1 : 0) << p.url;
    const double rate = out[0].result.stats.page_threshold;
    EXPECT_GT(rate, 4.0 / 12) << "above the common phrase's share of the shortest page";
    EXPECT_LT(rate, 0.5);
    if (nranks == 1) {
      first = pages;
      first_rate = rate;
    } else {
      EXPECT_EQ(rate, first_rate);
      for (std::size_t i = 0; i < pages.size(); ++i) EXPECT_EQ(pages[i].flagged, first[i].flagged) << pages[i].url;
    }
  }
}

}  // namespace
}  // namespace crd::detect
