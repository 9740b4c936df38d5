// Detection thresholds: a fixed value, "auto" = mean + σ over all items (paper §4.1),
// "robust[:K]" = median + K · 1.4826 · MAD, or for pages "binomial[:R[:ALPHA]]" = more labeled
// chunks than a chance rate R explains (chance_floor.hpp). Automatic thresholds are clamped below 1.
#pragma once

#include <array>
#include <string>

#include "crd/base/enum_names.hpp"

namespace crd::detect {

// The statistics of one population (all pages' containments, or all neighborhoods' badness).
struct Population {
  double mean = 0, sigma = 0;
  double median = 0, mad = 0;  // MAD = median of |x − median|, unscaled
};

struct ResolvedThreshold {
  double value = 0;
  bool clamped = false;  // an automatic rule gave ≥ 1 and value was lowered to kClampedThreshold
};

struct Threshold {
  bool automatic = true;  // computed from the population (auto or robust)
  double value = 0;       // fixed: the threshold; robust: K
  bool robust = false;    // median + K · 1.4826 · MAD instead of mean + σ
  bool binomial = false;  // pages only: value is the chance rate R; flag when P[Bin(chunks, R) ≥ labeled] < alpha
  double alpha = 0;
  // binomial:fit[:ALPHA]: R is measured from the crawl's page containments, max(value, median +
  // kDefaultRobustK · 1.4826 · MAD), at most kMaxFittedRate (docs/winnow.md, "A chance rate
  // measured from the crawl").
  bool fitted = false;
  // betabinomial[:ALPHA[:CUT]]: the chance rate varies from page to page as a Beta fitted from the
  // crawl's pages (beta_binomial.hpp); value is CUT, the containment above which a page is left out
  // of the fit's bulk from the start. Not `binomial`: no fixed R, and no combined rule.
  bool beta_binomial = false;

  // binomial's defaults (docs/winnow.md, "Choosing the page threshold"): unrelated text shares
  // about 1 % of its winnowed grams with a labeled site at most, and α is the false-positive goal.
  static constexpr double kDefaultChanceRate = 0.01;
  static constexpr double kDefaultChanceAlpha = 1e-4;
  // A fitted rate above this is clamped (and `clamped` set): half of every unrelated page matching
  // by chance leaves no room to tell a copy.
  static constexpr double kMaxFittedRate = 0.5;
  // betabinomial's bulk starts below this containment (docs/winnow.md, "An over-dispersed chance
  // rate": chosen on the development part of the labeled-set validation).
  static constexpr double kDefaultBulkCut = 0.02;

  // 1.4826 · MAD estimates σ for normally distributed values, so robust:1 is the analogue of auto.
  static constexpr double kMadToSigma = 1.4826;
  static constexpr double kDefaultRobustK = 3;
  // Items are flagged when their score exceeds the threshold. Scores lie in [0, 1], so an
  // automatic threshold ≥ 1 would flag nothing, not even items made entirely of labeled chunks —
  // which happens whenever more than half the items score 1 (a mirror-heavy crawl). It is then
  // clamped to the largest double below 1: exactly the items scoring 1 are flagged (a score below
  // 1 is labeled/chunks ≤ 1 − 2^-32, far below it). A fixed threshold is taken as given.
  static constexpr double kClampedThreshold = 0.99999999999999989;  // nextafter(1.0, 0.0)

  // "auto", "robust", "robust:K" (K > 0), "binomial", "binomial:R", "binomial:R:ALPHA"
  // (0 < R < 1, 0 < ALPHA < 1/2), "binomial:fit", "binomial:fit:ALPHA", "betabinomial",
  // "betabinomial:ALPHA", "betabinomial:ALPHA:CUT" (0 < CUT < 1) or a number ≥ 0. Throws
  // UsageError naming the option.
  static Threshold parse(const std::string& text, const std::string& option);
  // binomial: R (fitted: from p), which every flagged page exceeds; betabinomial: 0 (its fit is
  // fit_beta_binomial's, over the pages' counts, not over this population).
  ResolvedThreshold resolve(const Population& p) const;
  std::string to_string() const;  // the rule as parse() reads it: "auto", "robust:3", "binomial:0.01:0.0001",
                                  // "binomial:fit:0.0001", "betabinomial:0.0001:0.02", "0.25"
};

enum class BadnessMode { Pages, Chunks };
constexpr std::array<EnumName<BadnessMode>, 2> enum_names(BadnessMode) {
  return {{{"pages", BadnessMode::Pages}, {"chunks", BadnessMode::Chunks}}};
}

}  // namespace crd::detect
