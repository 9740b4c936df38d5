// The over-dispersed page rule ("--page-threshold betabinomial[:ALPHA[:CUT]]"; docs/winnow.md,
// "An over-dispersed chance rate"): the chance rate of labeled grams differs from page to page (a
// long API or code page shares more technical phrasing with a manual than a short one), so an
// unrelated page's labeled count is Beta-binomial, not binomial; the Beta is fitted from the crawl's
// own pages here, and PageRule tests each page against it (beta_binomial_tail.hpp).
#pragma once

#include <cstdint>
#include <span>

#include "crd/comm/transport.hpp"
#include "crd/detect/beta_binomial_tail.hpp"
#include "crd/detect/page_rule.hpp"

namespace crd::detect {

// Collective: fits Beta(a, b) to the chance rate of the pages' gram counts (after stop removal), by
// the method of moments on the bulk, made robust to copies twice: the bulk starts as the pages whose
// containment is at most `cut`, and each round the pages the fit itself calls improbable (at α) leave
// it, until none does (at most kMaxRounds). The sums are exact integers, so the fit is the same for
// any rank count and input order. A bulk without any labeled gram gives the mean (Σs + 1) / (Σn + 2).
BetaFit fit_beta_binomial(comm::Transport& transport, std::span<const PageCounts> pages, double cut, double alpha);

inline constexpr std::uint64_t kMaxBetaFitRounds = 20;

}  // namespace crd::detect
