// The neighborhood rule of flagged pages (--neighborhood-min-flagged): k flagged of n scored pages
// improbable at the page rule's level α (a binomial tail), with a minimum, and detect() on a crawl
// holding a mirror diluted below the badness threshold (flagged) and an unrelated host with one
// false page (not), at 1 and 2 ranks.
#include <gtest/gtest.h>

#include <string>

#include "crd/detect/chance_floor.hpp"
#include "crd/detect/flagged_share.hpp"
#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

TEST(FlaggedShare, ABinomialTailAtThePageLevelWithAMinimum) {
  const FlaggedShare rule(3, 1e-4);
  EXPECT_FALSE(rule.improbable(100, 2)) << "2 of 100 is improbable at 1e-4 (4.9e-5), but below the minimum";
  EXPECT_TRUE(rule.improbable(100, 3));
  // 3 of 1,000 at 1e-4: tail 1.7e-4, not below α; 4 of 1,000: 4e-6.
  EXPECT_FALSE(rule.improbable(1000, 3));
  EXPECT_TRUE(rule.improbable(1000, 4));
  EXPECT_FALSE(rule.improbable(3, 0));
  EXPECT_FALSE(FlaggedShare(0, 1e-4).improbable(100, 100)) << "0: off";
  EXPECT_FALSE(FlaggedShare(3, 0).improbable(100, 100)) << "a page rule without a level";
  for (std::uint64_t n : {5u, 40u, 700u, 20000u})
    for (std::uint64_t k = 3; k <= n; k += 1 + n / 50)
      EXPECT_EQ(rule.improbable(n, k), ChanceFloor::upper_tail(n, k, 1e-4) < 1e-4) << n << " " << k;
}

TEST(FlaggedShare, ThePageLevelOfEachRule) {
  DetectOptions o;
  EXPECT_EQ(page_level(o), 0) << "auto has no level";
  o.page_threshold = Threshold::parse("binomial:0.01:0.001", "x");
  EXPECT_EQ(page_level(o), 0.001);
  o.combined = true;
  EXPECT_EQ(page_level(o), 0.002) << "the combined rule's 2α";
  o.combined = false;
  o.page_threshold = Threshold::parse("betabinomial:0.0002", "x");
  EXPECT_EQ(page_level(o), 0.0002);
  o.neighborhood_min_flagged = 3;
  EXPECT_TRUE(o.problem().empty());
  o.page_threshold = Threshold::parse("auto", "x");
  EXPECT_FALSE(o.problem().empty()) << "no level to compare the share with";
}

// A mirror whose 30 pages are each diluted by added text: 60 of 1,000 grams still the site's, so
// every page is flagged by the binomial rule (it needs 25 of 1,000) while the host's badness, 0.06,
// stays below the neighborhood threshold (0.2). An unrelated host: 200 pages sharing nothing, and one
// page holding 40 of the site's grams of 100 (a false page).
testing::World diluted_crawl() {
  testing::World w;
  std::uint32_t next_own = 1000;
  const auto page = [&](const std::string& key, std::uint32_t first_label, std::uint32_t labeled, std::uint32_t own) {
    testing::Page p;
    p.key = key;
    for (std::uint32_t k = 0; k < labeled; ++k) p.chunks.push_back(first_label + k);
    for (std::uint32_t k = 0; k < own; ++k) p.chunks.push_back(next_own++);
    w.pages.push_back(std::move(p));
  };
  for (std::uint32_t i = 0; i < 30; ++i) page("mirror.example/p" + std::to_string(i), 30 * i, 60, 940);
  for (std::uint32_t i = 0; i < 200; ++i) page("unrelated.example/p" + std::to_string(i), 0, 0, 50);
  page("unrelated.example/false", 500, 40, 60);
  w.label_of.assign(next_own, kNoLabel);
  w.is_stop.assign(next_own, 0);
  for (std::uint32_t c = 0; c < 1000; ++c) w.label_of[c] = c;
  w.labels = 1000;
  return w;
}

TEST(FlaggedShare, ADilutedMirrorHostIsFlaggedAHostWithOneFalsePageIsNot) {
  testing::World w = diluted_crawl();
  for (int nranks : {1, 2}) {
    SCOPED_TRACE("ranks " + std::to_string(nranks));
    testing::spread_pages(w, nranks, 5);
    DetectOptions o;
    o.max_neighborhood_depth = 0;
    o.page_threshold = Threshold::parse("binomial", "page-threshold");
    o.neighborhood_threshold = Threshold::parse("0.2", "neighborhood-threshold");
    const auto host_flags = [&](std::uint64_t min_flagged) {
      o.neighborhood_min_flagged = min_flagged;
      const auto out = testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks));
      std::uint64_t mirror_pages = 0;
      std::string unrelated_flagged;
      for (const PageRow& p : testing::all_pages(out)) {
        mirror_pages += p.flagged && p.url.rfind("mirror.example/", 0) == 0;
        if (p.flagged && p.url.rfind("unrelated.example/", 0) == 0) unrelated_flagged += p.url;
      }
      EXPECT_EQ(unrelated_flagged, "unrelated.example/false") << "the one false page";
      EXPECT_EQ(mirror_pages, 30u) << "every diluted page is flagged by the page rule";
      std::string flagged;
      for (const NeighborhoodRow& n : testing::all_neighborhoods(out))
        if (n.flagged) flagged += n.prefix + " ";
      return flagged;
    };
    EXPECT_EQ(host_flags(0), "") << "badness 0.06 < 0.2: the diluted mirror is missed without the rule";
    EXPECT_EQ(host_flags(3), "mirror.example ") << "30 of 30 flagged; 1 of 201 is not improbable";
  }
}

}  // namespace
}  // namespace crd::detect
