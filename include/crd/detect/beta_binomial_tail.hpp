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
// same double arithmetic on every rank); improbable() is memoized per (n, s).
class BetaBinomialTail {
 public:
  BetaBinomialTail(double a, double b, double alpha);

  // P[X ≥ s] < α, with early exits: stops summing once the sum reaches α, or once the terms left
  // (each at most the current one past the mode) cannot bring it to α.
  bool improbable(std::uint64_t n, std::uint64_t s);

  // P[BetaBinomial(n, a, b) ≥ s]: the terms from s up when s is past the mode, else 1 − the terms
  // below s; by the pmf's ratio of consecutive terms, normalized by the first (no under- or overflow).
  static double upper_tail(std::uint64_t n, std::uint64_t s, double a, double b);
  static double log_pmf(std::uint64_t n, std::uint64_t k, double a, double b);

 private:
  double a_, b_, alpha_;
  std::unordered_map<std::uint64_t, bool> memo_;  // key n · 2^32 + s (page counts are 32-bit)
};

}  // namespace crd::detect
