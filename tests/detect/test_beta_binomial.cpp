// The over-dispersed page rule (--page-threshold betabinomial[:ALPHA[:CUT]]): the Beta-binomial
// tail against a direct sum, the early-exit test against the tail, parsing, the robust moment fit
// (the same at 1 and 3 ranks and in any page order), and detect() on a crawl whose long unrelated
// pages share common phrasing at a chance rate that varies from page to page: not flagged, while
// the fixed binomial rate flags them; edited copies flagged; identical at 1 and 2 ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "crd/base/error.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/detect/beta_binomial_fit.hpp"
#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

// P[BetaBinomial(n, a, b) ≥ s] as the plain sum of every pmf term from s to n, each from lgamma in
// long double: the reference the recurrence must match.
long double direct_tail(unsigned n, unsigned s, long double a, long double b) {
  const auto lbeta = [](long double x, long double y) { return std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y); };
  long double sum = 0;
  for (unsigned k = s; k <= n; ++k)
    sum += std::exp(std::lgamma(static_cast<long double>(n) + 1) - std::lgamma(static_cast<long double>(k) + 1) -
                    std::lgamma(static_cast<long double>(n - k) + 1) + lbeta(k + a, n - k + b) - lbeta(a, b));
  return sum;
}

TEST(BetaBinomialTail, UpperTailMatchesTheDirectSum) {
  // Rates of common phrasing (means 0.1 %–30 %), over-dispersed and nearly binomial, J-shaped (a < 1)
  // and with an inner mode (a > 1).
  for (const auto& [a, b] : {std::pair{0.05, 40.0}, {0.5, 60.0}, {2.0, 100.0}, {3.0, 7.0}, {1.0, 1.0}, {10.0, 9990.0}})
    for (unsigned n : {1u, 7u, 40u, 300u, 1500u})
      for (unsigned s = 0; s <= n + 1; s += (n > 100 ? n / 40 : 1)) {
        const long double want = s > n ? 0 : direct_tail(n, s, a, b);
        const double got = BetaBinomialTail::upper_tail(n, s, a, b);
        EXPECT_NEAR(got, static_cast<double>(want), 1e-13 + 1e-9 * static_cast<double>(want))
            << "n " << n << " s " << s << " a " << a << " b " << b;
      }
}

TEST(BetaBinomialTail, ImprobableIsTheTailBelowAlpha) {
  for (double alpha : {1e-2, 1e-4, 1e-9}) {
    for (const auto& [a, b] : {std::pair{0.05, 40.0}, {2.0, 100.0}, {3.0, 7.0}}) {
      BetaBinomialTail test(a, b, alpha);
      for (unsigned n : {1u, 10u, 57u, 180u, 643u, 4000u})
        for (unsigned s = 0; s <= n; s += 1 + n / 200) {
          const double tail = BetaBinomialTail::upper_tail(n, s, a, b);
          if (std::abs(tail - alpha) < 1e-6 * alpha) continue;  // too close to call in doubles
          EXPECT_EQ(test.improbable(n, s), tail < alpha) << "n " << n << " s " << s << " tail " << tail;
          EXPECT_EQ(test.improbable(n, s), tail < alpha) << "memoized";
        }
    }
  }
}

// The rule as a floor per page length (min_labeled, found by bisection and memoized per n) decides
// every (n, s) exactly as the direct tail test does: the tail falls as s grows, early exits included.
TEST(BetaBinomialTail, FloorPerLengthEqualsTheTailTestAtEveryCount) {
  for (double alpha : {1e-2, 1e-4, 1e-9}) {
    for (const auto& [a, b] : {std::pair{0.05, 40.0}, {0.3, 180.0}, {2.0, 100.0}, {3.0, 7.0}, {1.0, 1.0}}) {
      BetaBinomialTail floor(a, b, alpha);
      for (unsigned n : {1u, 2u, 10u, 57u, 180u, 643u, 2500u}) {
        const std::uint64_t m = floor.min_labeled(n);
        EXPECT_GE(m, 1u);
        EXPECT_LE(m, n + 1u);
        for (unsigned s = 0; s <= n + 1; ++s)
          ASSERT_EQ(floor.improbable(n, s), floor.improbable_by_tail(n, s))
              << "n " << n << " s " << s << " a " << a << " b " << b << " alpha " << alpha << " floor " << m;
      }
    }
  }
}

TEST(BetaBinomialRule, ParsesAndPrintsTheRule) {
  const Threshold t = Threshold::parse("betabinomial", "page-threshold");
  EXPECT_TRUE(t.beta_binomial);
  EXPECT_FALSE(t.binomial);
  EXPECT_FALSE(t.automatic);
  EXPECT_EQ(t.alpha, Threshold::kDefaultChanceAlpha);
  EXPECT_EQ(t.value, Threshold::kDefaultBulkCut);
  EXPECT_EQ(t.to_string(), "betabinomial:0.0001:0.02");
  EXPECT_EQ(Threshold::parse(t.to_string(), "x").to_string(), t.to_string());
  const Threshold u = Threshold::parse("betabinomial:0.001:0.25", "x");
  EXPECT_EQ(u.alpha, 0.001);
  EXPECT_EQ(u.value, 0.25);
  EXPECT_EQ(Threshold::parse("betabinomial:0.001", "x").value, Threshold::kDefaultBulkCut);
  EXPECT_EQ(t.resolve({0.3, 0.1, 0.2, 0.1}).value, 0) << "its rate is the fit's, not the population's";
  for (const char* bad : {"betabinomial:", "betabinomial:0.5", "betabinomial:0", "betabinomialx", "betabinomial:0.1:1",
                          "betabinomial:0.1:0", "betabinomial:0.1:0.1:3"})
    EXPECT_THROW(Threshold::parse(bad, "page-threshold"), UsageError) << bad;
}

// Unrelated pages of 50–2,000 grams whose chance rate is drawn from Beta(2, 98) (mean 2 %), and 200
// copies at containment 0.3–0.9 that the robust bulk must leave out.
std::vector<PageCounts> crawl_counts(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::gamma_distribution<double> ga(2.0), gb(98.0);
  std::vector<PageCounts> pages;
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t n = 50 + rng() % 1950;
    const double x = ga(rng), rate = x / (x + gb(rng));
    std::binomial_distribution<std::uint64_t> draw(n, rate);
    pages.push_back({n, draw(rng)});
  }
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t n = 100 + rng() % 900;
    pages.push_back({n, n * (3 + rng() % 7) / 10});
  }
  return pages;
}

BetaFit fit_at(int nranks, const std::vector<PageCounts>& pages) {
  std::vector<BetaFit> fits(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    std::vector<PageCounts> mine;
    for (std::size_t i = 0; i < pages.size(); ++i)
      if (static_cast<int>(i % static_cast<std::size_t>(nranks)) == t.rank()) mine.push_back(pages[i]);
    fits[static_cast<std::size_t>(t.rank())] = fit_beta_binomial(t, mine, 0.1, 1e-4);
  });
  for (const BetaFit& f : fits) EXPECT_EQ(f.a, fits[0].a) << "every rank holds the same fit";
  return fits[0];
}

TEST(BetaBinomialFit, FindsTheRateAndItsSpreadWithoutTheCopies) {
  std::vector<PageCounts> pages = crawl_counts(7);
  const BetaFit fit = fit_at(1, pages);
  EXPECT_NEAR(fit.mean, 0.02, 0.002) << "Beta(2, 98)'s mean; the copies (≥ 0.3) are not in the bulk";
  // ρ = 1 / (a + b + 1) = 1 / 101 for Beta(2, 98); the cut at 0.1 and the trimming narrow it a little.
  EXPECT_GT(fit.rho, 0.5 / 101);
  EXPECT_LT(fit.rho, 1.5 / 101);
  EXPECT_GE(fit.b, 1);
  EXPECT_LE(fit.pages, 3000u);
  EXPECT_GE(fit.pages, 2950u);
  // Any rank count and page order: exact integer sums.
  const BetaFit three = fit_at(3, pages);
  std::shuffle(pages.begin(), pages.end(), std::mt19937_64(3));
  const BetaFit shuffled = fit_at(2, pages);
  for (const BetaFit& f : {three, shuffled}) {
    EXPECT_EQ(f.a, fit.a);
    EXPECT_EQ(f.b, fit.b);
    EXPECT_EQ(f.pages, fit.pages);
  }
}

TEST(BetaBinomialFit, ABulkWithoutLabeledGramsStillHasARate) {
  const BetaFit fit = fit_at(2, std::vector<PageCounts>(10, PageCounts{100, 0}));
  EXPECT_DOUBLE_EQ(fit.mean, 1.0 / 1002);
  EXPECT_GT(fit.a, 0);
  EXPECT_EQ(fit_at(1, {}).mean, Threshold::kDefaultChanceRate) << "no page to fit on";
}

// A crawl against a site of 1,000 grams (labels 0 … 999). Unrelated pages of 200–2,000 grams share
// common phrasing with it (labels 0 … 99) at a rate that varies from page to page, 0.5 % to 4 %;
// copies are edited (1/3 of their grams changed) or diluted by added text (containment 0.15).
// At R = 1 % the long pages at 2–4 % are flagged; under the fitted Beta none is.
testing::World varying_rate_crawl() {
  testing::World w;
  std::uint32_t next_own = 1000;
  const auto page = [&](const std::string& key, std::uint32_t first_label, std::uint32_t labeled, std::uint32_t modulo,
                        std::uint32_t own) {
    testing::Page p;
    p.key = key;
    for (std::uint32_t k = 0; k < labeled; ++k) p.chunks.push_back(first_label + k % modulo);
    for (std::uint32_t k = 0; k < own; ++k) p.chunks.push_back(next_own++);
    std::rotate(p.chunks.begin(), p.chunks.begin() + static_cast<std::ptrdiff_t>(p.chunks.size() / 3), p.chunks.end());
    w.pages.push_back(std::move(p));
  };
  const std::uint32_t per_mille[] = {5, 10, 20, 30, 40};
  for (std::uint32_t i = 0; i < 400; ++i) {
    const std::uint32_t n = 200 + (i * 37) % 1800, s = n * per_mille[i % 5] / 1000;
    page("bg" + std::to_string(i % 6) + ".example/p" + std::to_string(i), (i * 7) % 60, s, 40, n - s);
  }
  for (std::uint32_t i = 0; i < 6; ++i) {
    page("edited.example/p" + std::to_string(i), 100 + 100 * i, 200, 1000, 100);
    page("diluted.example/p" + std::to_string(i), 100 + 100 * i, 150, 1000, 850);
  }
  w.label_of.assign(next_own, kNoLabel);
  w.is_stop.assign(next_own, 0);
  for (std::uint32_t c = 0; c < 1000; ++c) w.label_of[c] = c;
  w.labels = 1000;
  return w;
}

TEST(BetaBinomialRule, VaryingChanceRateIsNotCopyingEditedCopiesAre) {
  testing::World w = varying_rate_crawl();
  std::vector<PageRow> first;
  double first_rate = 0;
  for (int nranks : {1, 2}) {
    SCOPED_TRACE("ranks " + std::to_string(nranks));
    testing::spread_pages(w, nranks, 7);
    DetectOptions o;
    o.max_neighborhood_depth = 0;
    o.page_threshold = Threshold::parse("binomial", "page-threshold");
    std::uint64_t fixed_background = 0;
    for (const PageRow& p :
         testing::all_pages(testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks))))
      fixed_background += p.flagged && p.url.rfind("bg", 0) == 0;
    EXPECT_GE(fixed_background, 100u) << "at R = 1 %, the long pages at 2–4 % are not chance";

    o.page_threshold = Threshold::parse("betabinomial", "page-threshold");
    const auto out = testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks));
    const auto pages = testing::all_pages(out);
    ASSERT_EQ(pages.size(), w.pages.size());
    for (const PageRow& p : pages) EXPECT_EQ(p.flagged, p.url.rfind("bg", 0) == 0 ? 0 : 1) << p.url;
    const DetectionStats& s = out[0].result.stats;
    // The bulk starts below CUT = 2 %: the 240 pages at 0.5–2 %; the pages at 3–4 % and the copies
    // are outside it, yet none of the pages at 3–4 % is improbable under the fitted spread.
    EXPECT_NEAR(s.page_threshold, 0.0117, 0.0015) << "the bulk's pooled rate";
    EXPECT_EQ(s.page_beta_pages, 240u);
    EXPECT_GT(s.page_beta_a, 0);
    if (nranks == 1) {
      first = pages;
      first_rate = s.page_threshold;
    } else {
      EXPECT_EQ(s.page_threshold, first_rate);
      for (std::size_t i = 0; i < pages.size(); ++i) EXPECT_EQ(pages[i].flagged, first[i].flagged) << pages[i].url;
    }
  }
}

TEST(BetaBinomialRule, RefusedWhereNoCrawlIsFittedOrWithTheCombinedRule) {
  DetectOptions o;
  o.page_threshold = Threshold::parse("betabinomial", "page-threshold");
  EXPECT_TRUE(o.problem().empty());
  o.combined = true;
  EXPECT_FALSE(o.problem().empty()) << "winnow+scan judges each part by the binomial rule";
  EXPECT_THROW(PageRule(o.page_threshold, 0, 1), std::logic_error) << "the rule needs its fit";
}

}  // namespace
}  // namespace crd::detect
