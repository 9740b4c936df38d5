// The page rule (page_rule.hpp).
#include "crd/detect/page_rule.hpp"

#include "crd/detect/page_scores.hpp"

namespace crd::detect {

PageRule::PageRule(const Threshold& rule, double threshold, std::uint64_t min_labeled)
    : threshold_(threshold), min_labeled_(min_labeled) {
  if (rule.binomial) floor_.emplace(rule.value, rule.alpha);
}

PageVerdict PageRule::judge(const PageCounts& page) {
  PageVerdict v;
  v.containment = containment(page.labeled, page.chunks);
  // Strictly above: a threshold of 0 still needs one labeled chunk, and a page without chunks
  // (containment 0) is never flagged.
  if (!(v.containment > threshold_)) return v;
  v.reason = PageReason::TooFewLabeled;
  if (page.labeled < min_labeled_) return v;
  v.reason = PageReason::BelowChanceFloor;
  if (floor_ && page.labeled < floor_->min_labeled(page.chunks)) return v;
  v.reason = PageReason::Flagged;
  v.flagged = true;
  return v;
}

}  // namespace crd::detect
