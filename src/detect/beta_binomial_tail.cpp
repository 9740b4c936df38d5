// The Beta-binomial upper tail, summed by the ratio of consecutive terms.
#include "crd/detect/beta_binomial_tail.hpp"

#include <algorithm>
#include <cmath>

namespace crd::detect {
namespace {

// pmf(k + 1) / pmf(k).
double ratio(double n, double k, double a, double b) { return (n - k) * (k + a) / ((k + 1) * (n - k - 1 + b)); }

// Whether the pmf still rises at s (pmf(s) ≥ pmf(s − 1)), i.e. s is at or before the mode: with
// b ≥ 1 that is (a − 1)(n − s + 1) ≥ s (b − 1), and once false it stays false for larger s.
bool rising_at(double n, double s, double a, double b) { return (a - 1) * (n - s + 1) >= s * (b - 1); }

}  // namespace

double BetaBinomialTail::log_pmf(std::uint64_t n, std::uint64_t k, double a, double b) {
  const double nd = static_cast<double>(n), kd = static_cast<double>(k);
  return std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1) + std::lgamma(kd + a) +
         std::lgamma(nd - kd + b) - std::lgamma(nd + a + b) - std::lgamma(a) - std::lgamma(b) + std::lgamma(a + b);
}

double BetaBinomialTail::upper_tail(std::uint64_t n, std::uint64_t s, double a, double b) {
  if (s == 0) return 1;
  if (s > n) return 0;
  const double nd = static_cast<double>(n);
  double sum = 1, term = 1;
  if (!rising_at(nd, static_cast<double>(s), a, b)) {
    // Past the mode the terms only fall: sum them until they no longer change the sum.
    for (std::uint64_t k = s; k < n; ++k) {
      term *= ratio(nd, static_cast<double>(k), a, b);
      sum += term;
      if (term < 1e-17 * sum) break;
    }
    return std::exp(log_pmf(n, s, a, b)) * sum;
  }
  // At or before the mode the terms below s fall going down: 1 − P[X < s].
  for (std::uint64_t k = s - 1; k > 0; --k) {
    term /= ratio(nd, static_cast<double>(k - 1), a, b);
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return std::max(0.0, 1 - std::exp(log_pmf(n, s - 1, a, b)) * sum);
}

BetaBinomialTail::BetaBinomialTail(double a, double b, double alpha) : a_(a), b_(b), alpha_(alpha) {}

std::uint64_t BetaBinomialTail::min_labeled(std::uint64_t n) {
  if (const auto it = memo_.find(n); it != memo_.end()) return it->second;
  // invariant: not improbable at lo (0 never is), improbable at hi (n + 1 labeled of n always is).
  std::uint64_t lo = 0, hi = n + 1;
  while (lo + 1 < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (improbable_by_tail(n, mid) ? hi : lo) = mid;
  }
  memo_.emplace(n, hi);
  return hi;
}

bool BetaBinomialTail::improbable_by_tail(std::uint64_t n, std::uint64_t s) const {
  if (s == 0) return false;
  if (s > n) return true;
  bool out = false;
  const double log_first = log_pmf(n, s, a_, b_);
  const double nd = static_cast<double>(n);
  if (log_first >= std::log(alpha_)) {
    out = false;  // the first term alone reaches α
  } else if (rising_at(nd, static_cast<double>(s), a_, b_)) {
    out = upper_tail(n, s, a_, b_) < alpha_;
  } else {
    // Past the mode each term is at most the one before: after term k, the n − k terms left add at
    // most term_k each. Decide as soon as the sum reaches α or cannot.
    const double first = std::exp(log_first);
    double sum = 1, term = 1;
    out = true;
    for (std::uint64_t k = s; k < n; ++k) {
      if (first * sum >= alpha_) {
        out = false;
        break;
      }
      if (first * (sum + term * static_cast<double>(n - k)) < alpha_) break;
      term *= ratio(nd, static_cast<double>(k), a_, b_);
      sum += term;
    }
    if (out) out = first * sum < alpha_;
  }
  return out;
}

}  // namespace crd::detect
