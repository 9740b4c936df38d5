// The page rule (page_rule.hpp).
#include "crd/detect/page_rule.hpp"

#include <algorithm>
#include <stdexcept>

#include "crd/detect/page_scores.hpp"

namespace crd::detect {

PageRule::PageRule(const Threshold& rule, double threshold, std::uint64_t min_labeled, bool combined,
                   const BetaFit* beta)
    : threshold_(threshold), combined_(combined), min_labeled_(min_labeled) {
  // threshold is a binomial rule's own R, or binomial:fit's R resolved over the pages.
  if (rule.binomial) floor_.emplace(threshold, rule.alpha);
  if (rule.beta_binomial) {
    if (beta == nullptr) throw std::logic_error("PageRule: betabinomial needs its fitted Beta");
    beta_.emplace(beta->a, beta->b, rule.alpha);
  }
}

PageVerdict PageRule::judge(const PageCounts& page) {
  if (!combined_) return judge_counts(page.chunks, page.labeled);
  // Each part at its own floor: an unrelated page is flagged by either with probability at most
  // 2α (combined_level). Not flagged, the page gives the reason of the part that came further.
  const PageVerdict exact = judge_counts(page.exact_chunks, page.exact_labeled);
  const PageVerdict grams = judge_counts(page.chunks - page.exact_chunks, page.labeled - page.exact_labeled);
  PageVerdict v;
  v.containment = containment(page.labeled, page.chunks);
  v.flagged = exact.flagged || grams.flagged;
  v.reason = std::max(exact.reason, grams.reason);
  return v;
}

PageVerdict PageRule::judge_counts(std::uint64_t chunks, std::uint64_t labeled) {
  const PageCounts page{chunks, labeled};
  PageVerdict v;
  v.containment = containment(page.labeled, page.chunks);
  // Strictly above: a threshold of 0 still needs one labeled chunk, and a page without chunks
  // (containment 0) is never flagged.
  if (!(v.containment > threshold_)) return v;
  v.reason = PageReason::TooFewLabeled;
  if (page.labeled < min_labeled_) return v;
  v.reason = PageReason::BelowChanceFloor;
  if (floor_ && page.labeled < floor_->min_labeled(page.chunks)) return v;
  if (beta_ && !beta_->improbable(page.chunks, page.labeled)) return v;
  v.reason = PageReason::Flagged;
  v.flagged = true;
  return v;
}

}  // namespace crd::detect
