// The binomial page rule ("--page-threshold binomial:R[:ALPHA]"): a page is flagged only when its
// labeled chunks are more than a chance rate R of shared chunks explains (docs/winnow.md).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "crd/detect/threshold.hpp"

namespace crd::detect {

// A page of n chunks whose chunks each match a label with probability R holds Binomial(n, R)
// labeled chunks. min_labeled(n) is the fewest labeled chunks such that P[Binomial(n, R) ≥ s] < α:
// a page at that count is flagged, one at the chance rate only with probability < α. It always
// exceeds n · R (α < 1/2), so every page it admits has containment > R. Deterministic (the same
// double arithmetic on every rank); memoized per n, since pages repeat few distinct chunk counts.
class ChanceFloor {
 public:
  ChanceFloor(double rate, double alpha);  // 0 < rate < 1, 0 < alpha < 1/2

  std::uint64_t min_labeled(std::uint64_t chunks);

  // P[Binomial(n, rate) ≥ s], summed in log space (no underflow at any n).
  static double upper_tail(std::uint64_t n, std::uint64_t s, double rate);

 private:
  double rate_, alpha_;
  std::unordered_map<std::uint64_t, std::uint64_t> memo_;
};

// The page rule's floor when it is binomial, else none. Page flag with it (detect, check, compare):
// page_flagged(containment, labeled, threshold, max(min_labeled, floor->min_labeled(chunks))).
std::optional<ChanceFloor> chance_floor(const Threshold& page_rule);
// The same at a resolved rate: binomial:fit's R is known only after the population's statistics.
std::optional<ChanceFloor> chance_floor(const Threshold& page_rule, double resolved_rate);
std::uint64_t required_labeled(std::optional<ChanceFloor>& floor, std::uint64_t min_labeled, std::uint64_t chunks);

}  // namespace crd::detect
