// The binomial page rule (--page-threshold binomial[:R[:ALPHA]]): the tail and floor
// arithmetic against exact sums, parsing, and detect() flagging an edited copy but not pages that
// share a few chunks by chance, at 1 and 2 ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "crd/base/error.hpp"
#include "crd/detect/chance_floor.hpp"
#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

// P[Bin(n, r) ≥ s] by the textbook sum, in long double (n ≤ 200: no overflow).
long double exact_tail(unsigned n, unsigned s, long double r) {
  long double sum = 0, choose = 1;  // choose = C(n, k)
  for (unsigned k = 0; k <= n; ++k) {
    if (k > 0) choose = choose * (n - k + 1) / k;
    if (k >= s)
      sum += choose * std::pow(r, static_cast<long double>(k)) * std::pow(1 - r, static_cast<long double>(n - k));
  }
  return sum;
}

TEST(ChanceFloor, UpperTailMatchesTheExactSum) {
  for (double r : {0.001, 0.01, 0.2, 0.7})
    for (unsigned n : {0u, 1u, 7u, 40u, 200u})
      for (unsigned s = 0; s <= n + 1; ++s) {
        const long double want = exact_tail(n, s, r);
        const double got = ChanceFloor::upper_tail(n, s, r);
        EXPECT_NEAR(got, static_cast<double>(want), 1e-12 + 1e-9 * static_cast<double>(want))
            << "n " << n << " s " << s << " r " << r;
      }
}

// min_labeled(n) is the first count whose tail is below α: the one before it is not.
TEST(ChanceFloor, MinLabeledIsTheFirstCountBelowAlpha) {
  for (double alpha : {1e-2, 1e-4, 1e-9}) {
    ChanceFloor floor(0.01, alpha);
    for (std::uint64_t n : {0u, 1u, 10u, 57u, 180u, 643u, 12152u, 100000u}) {
      const std::uint64_t s = floor.min_labeled(n);
      SCOPED_TRACE("n " + std::to_string(n) + " alpha " + std::to_string(alpha));
      EXPECT_GT(static_cast<double>(s), 0.01 * static_cast<double>(n)) << "flagged pages always exceed R";
      if (s <= n) {
        EXPECT_LT(ChanceFloor::upper_tail(n, s, 0.01), alpha);
      }
      EXPECT_GE(ChanceFloor::upper_tail(n, s - 1, 0.01), alpha);
      EXPECT_EQ(floor.min_labeled(n), s) << "memoized value";
    }
  }
  ChanceFloor floor(0.01, 1e-4);
  EXPECT_EQ(floor.min_labeled(0), 1u) << "an empty page is never flagged";
  EXPECT_EQ(floor.min_labeled(10), 4u) << "1 of 10 (containment 0.1) is chance at R = 1 %";
  // 10⁶ chunks: (1 − R)^n underflows a double; the log-space sum does not. Normal tail at 10⁻⁴: 3.7 σ.
  const double mean = 1e4, sigma = std::sqrt(1e6 * 0.01 * 0.99);
  const auto big = static_cast<double>(floor.min_labeled(1000000));
  EXPECT_GT(big, mean + 3.5 * sigma);
  EXPECT_LT(big, mean + 4.1 * sigma);
}

TEST(ChanceFloor, ParsesAndPrintsTheRule) {
  const Threshold d = Threshold::parse("binomial", "page-threshold");
  EXPECT_TRUE(d.binomial);
  EXPECT_FALSE(d.automatic);
  EXPECT_EQ(d.value, Threshold::kDefaultChanceRate);
  EXPECT_EQ(d.alpha, Threshold::kDefaultChanceAlpha);
  EXPECT_EQ(d.to_string(), "binomial:0.01:0.0001");
  EXPECT_EQ(d.resolve({0.5, 0.5, 0.5, 0.5}).value, 0.01) << "no population: R, which flagged pages exceed";
  const Threshold r = Threshold::parse("binomial:0.02", "page-threshold");
  EXPECT_EQ(r.value, 0.02);
  EXPECT_EQ(r.alpha, Threshold::kDefaultChanceAlpha);
  const Threshold a = Threshold::parse("binomial:0.02:0.001", "page-threshold");
  EXPECT_EQ(a.alpha, 0.001);
  EXPECT_EQ(Threshold::parse(a.to_string(), "x").to_string(), a.to_string());
  for (const char* bad : {"binomial:", "binomial:0", "binomial:1", "binomial:0.01:", "binomial:0.01:0.5",
                          "binomial:0.01:0", "binomial:x", "binomialx", "binomial:0.01:0.1:3"})
    EXPECT_THROW(Threshold::parse(bad, "page-threshold"), UsageError) << bad;
}

// A labeled site's pages copied with edits (a third to a half of their chunks still labeled) among
// unrelated pages that share chunks by chance: short pages with 1 labeled chunk of 10
// (containment 0.1), long ones with about 1 % labeled. A containment threshold low enough for the
// copies flags the short pages; the binomial rule flags exactly the copies.
TEST(ChanceFloor, DetectFlagsEditedCopiesNotChanceMatches) {
  testing::World w;
  std::uint32_t next_unlabeled = 1000;
  const auto page = [&](const std::string& key, std::uint32_t labeled, std::uint32_t chunks) {
    testing::Page p;
    p.key = key;
    for (std::uint32_t k = 0; k < chunks; ++k) p.chunks.push_back(k < labeled ? k % 1000 : next_unlabeled++);
    w.pages.push_back(std::move(p));
  };
  for (int i = 0; i < 40; ++i) page("copy.example/p" + std::to_string(i), 20 + (i % 7) * 5, 150 + i);  // 13–27 %
  page("copy.example/short", 6, 20);      // an edited short page: 30 %
  page("copy.example/diluted", 40, 700);  // 2× cpp of added paragraphs: 5.7 %
  for (int i = 0; i < 300; ++i) page("bg.example/short" + std::to_string(i), 1, 10);
  for (int i = 0; i < 60; ++i) page("bg.example/long" + std::to_string(i), 7 + i % 5, 800);  // 0.9–1.4 %
  page("bg.example/huge", 70, 12152);  // 0.6 %, far more than 1 % of 1 % would explain at a global rate
  const std::uint64_t total = next_unlabeled;
  w.label_of.assign(total, kNoLabel);
  w.is_stop.assign(total, 0);
  for (std::uint32_t c = 0; c < 1000; ++c) w.label_of[c] = c;
  w.labels = 1000;

  for (int nranks : {1, 2}) {
    SCOPED_TRACE("ranks " + std::to_string(nranks));
    testing::spread_pages(w, nranks);
    DetectOptions o;
    o.page_threshold = Threshold::parse("binomial", "page-threshold");
    o.max_neighborhood_depth = 0;
    const auto pages =
        testing::all_pages(testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks)));
    ASSERT_EQ(pages.size(), w.pages.size());
    for (const PageRow& p : pages) EXPECT_EQ(p.flagged, p.url.rfind("copy.example/", 0) == 0 ? 1 : 0) << p.url;

    o.page_threshold = Threshold::parse("0.05", "page-threshold");  // a containment threshold below the diluted copy
    std::uint64_t short_flagged = 0;
    for (const PageRow& p :
         testing::all_pages(testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks))))
      short_flagged += p.url.rfind("bg.example/short", 0) == 0 ? p.flagged : 0;
    EXPECT_EQ(short_flagged, 300u) << "what the binomial rule avoids";
  }
}

TEST(ChanceFloor, IsAPageRuleOnly) {
  testing::World w;
  DetectOptions o;
  o.neighborhood_threshold = Threshold::parse("binomial", "neighborhood-threshold");
  EXPECT_THROW(testing::run_detect(w, 1, o, 256, testing::slice_firsts(0, 1)), UsageError);
}

}  // namespace
}  // namespace crd::detect
