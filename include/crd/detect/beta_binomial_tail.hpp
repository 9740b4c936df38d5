// The Beta-binomial page test of "--page-threshold betabinomial" (docs/winnow.md, "An over-dispersed
// chance rate"): an unrelated page of n chunks whose chance rate is itself Beta(a, b) holds
// BetaBinomial(n, a, b) labeled chunks; a page is flagged when its count is improbable under it.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace crd::detect {

// The fitted chance rate: an unrelated page's rate is Beta(a, b), mean a / (a + b).
struct BetaFit {
  double a = 0, b = 0;
  double mean = 0;           // a / (a + b): the pooled chance rate of the bulk
  double rho = 0;            // 1 / (a + b + 1): the over-dispersion (0 = binomial)
  std::uint64_t pages = 0;   // pages of the bulk the last fit was made on
  std::uint64_t rounds = 0;  // fits made (the bulk was trimmed rounds − 1 times)
};

// P[BetaBinomial(n, a, b) ≥ s] and the test at level α, for a > 0 and b ≥ 1 (so the pmf is
// unimodal and falls monotonically past its mode; fit_beta_binomial keeps b ≥ 1). Deterministic (the
// same double arithmetic on every rank). The tail falls as s grows, so the test is a floor on s per
// page length, as the binomial rule's (ChanceFloor::min_labeled): found once per n by bisection
// and memoized per n, since pages repeat few distinct lengths but many (length, count) pairs.
class BetaBinomialTail {
 public:
  BetaBinomialTail(double a, double b, double alpha);

  // P[X ≥ s] < α for a page of n chunks: s ≥ min_labeled(n).
  bool improbable(std::uint64_t n, std::uint64_t s) { return s >= min_labeled(n); }
  // The fewest labeled chunks a page of n chunks is flagged with (n + 1 when none is).
  std::uint64_t min_labeled(std::uint64_t n);
  // The same test for one (n, s), summed directly (what the floor is found by), with early exits:
  // stops summing once the sum reaches α, or once the terms left (each at most the current one past
  // the mode) cannot bring it to α.
  bool improbable_by_tail(std::uint64_t n, std::uint64_t s) const;

  // P[BetaBinomial(n, a, b) ≥ s]: the terms from s up when s is past the mode, else 1 − the terms
  // below s; by the pmf's ratio of consecutive terms, normalized by the first (no under- or overflow).
  static double upper_tail(std::uint64_t n, std::uint64_t s, double a, double b);
  static double log_pmf(std::uint64_t n, std::uint64_t k, double a, double b);

 private:
  double a_, b_, alpha_;
  std::unordered_map<std::uint64_t, std::uint64_t> memo_;  // n → min_labeled(n)
};

}  // namespace crd::detect
