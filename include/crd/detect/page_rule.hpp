// The page rule (paper §4.3), the one place where detect, check and compare-hashing decide whether a
// page is flagged: containment above the page threshold, at least --min-labeled labeled chunks, and
// for the binomial rule more labeled chunks than a chance rate explains (chance_floor.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "crd/base/enum_names.hpp"
#include "crd/detect/beta_binomial_tail.hpp"
#include "crd/detect/chance_floor.hpp"
#include "crd/detect/threshold.hpp"

namespace crd::detect {

// What the rule knows of one page, all counted after stop-chunk removal. A rule needing more of a
// page adds its count here and its test in PageRule::judge.
struct PageCounts {
  std::uint64_t chunks = 0;
  std::uint64_t labeled = 0;
  // The combined rule only (--chunker winnow+scan, combined_rule.hpp): how many of chunks and of
  // labeled are exact chunks; the rest are winnowed grams.
  std::uint64_t exact_chunks = 0;
  std::uint64_t exact_labeled = 0;
};

// Why a page is or is not flagged, in the order judge() tests them.
enum class PageReason { BelowThreshold, TooFewLabeled, BelowChanceFloor, Flagged };
constexpr std::array<EnumName<PageReason>, 4> enum_names(PageReason) {
  return {{{"below_threshold", PageReason::BelowThreshold},
           {"too_few_labeled", PageReason::TooFewLabeled},
           {"below_chance_floor", PageReason::BelowChanceFloor},
           {"flagged", PageReason::Flagged}}};
}

struct PageVerdict {
  bool flagged = false;
  PageReason reason = PageReason::BelowThreshold;
  double containment = 0;  // labeled / chunks (0 for a page without chunks)
};

class PageRule {
 public:
  // rule: --page-threshold as parsed; threshold: its value resolved over all pages
  // (Threshold::resolve: a fixed rule's own value, binomial's chance rate R); min_labeled:
  // --min-labeled. binomial:fit's floor is at the resolved R. combined: the combined rule of
  // --chunker winnow+scan (combined_rule.hpp): the page's exact part and its gram part are each
  // judged by this rule on their own counts, and the page is flagged when either part is; it needs
  // a binomial rule (DetectOptions::problem refuses any other). beta: the betabinomial rule's Beta
  // of the chance rate (fit_beta_binomial, beta_binomial.hpp), given for that rule only; threshold
  // is then 0 (any page with a labeled chunk is tested).
  PageRule(const Threshold& rule, double threshold, std::uint64_t min_labeled, bool combined = false,
           const BetaFit* beta = nullptr);
  // A rule that needs no population (fixed or binomial), as crd check scores single pages.
  static PageRule unresolved(const Threshold& rule, std::uint64_t min_labeled) {
    return PageRule(rule, rule.resolve(Population{}).value, min_labeled);
  }

  // Not const: the binomial floor is memoized per chunk count. The same on every rank.
  PageVerdict judge(const PageCounts& page);
  double threshold() const { return threshold_; }

 private:
  // The one-count rule on chunks and labeled; judge() applies it to the page or to each part.
  PageVerdict judge_counts(std::uint64_t chunks, std::uint64_t labeled);

  double threshold_;
  bool combined_;
  std::uint64_t min_labeled_;
  std::optional<ChanceFloor> floor_;      // binomial rule only
  std::optional<BetaBinomialTail> beta_;  // betabinomial rule only
};

}  // namespace crd::detect
