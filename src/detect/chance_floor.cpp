// ChanceFloor: the smallest labeled count whose binomial upper tail is below α.
#include "crd/detect/chance_floor.hpp"

#include <algorithm>
#include <cmath>

namespace crd::detect {

ChanceFloor::ChanceFloor(double rate, double alpha) : rate_(rate), alpha_(alpha) {}

double ChanceFloor::upper_tail(std::uint64_t n, std::uint64_t s, double rate) {
  if (s == 0) return 1;
  if (s > n) return 0;
  const double nd = static_cast<double>(n), lr = std::log(rate), lq = std::log1p(-rate);
  const auto log_pmf = [&](double k) {
    return std::lgamma(nd + 1) - std::lgamma(k + 1) - std::lgamma(nd - k + 1) + k * lr + (nd - k) * lq;
  };
  // Terms rise up to the mode and fall after it: normalize by the largest term summed (no overflow),
  // and stop once past the mode when the terms no longer change the sum.
  const double mode = std::floor((nd + 1) * rate);
  const double first = log_pmf(std::max(static_cast<double>(s), mode));
  double sum = 0;
  for (std::uint64_t k = s; k <= n; ++k) {
    const double term = std::exp(log_pmf(static_cast<double>(k)) - first);
    sum += term;
    if (static_cast<double>(k) > mode && term < 1e-17 * sum) break;
  }
  return std::exp(first) * sum;
}

std::uint64_t ChanceFloor::min_labeled(std::uint64_t chunks) {
  if (const auto it = memo_.find(chunks); it != memo_.end()) return it->second;
  // The tail falls as s grows: bisect for the first s with tail < α. Start at ⌊n · R⌋, at or below
  // the binomial median, so its tail is ≥ 1/2 > α; n + 1 chunks can never be labeled, so a page too
  // short to reach significance is never flagged.
  std::uint64_t lo = static_cast<std::uint64_t>(std::floor(static_cast<double>(chunks) * rate_)), hi = chunks + 1;
  while (lo + 1 < hi) {  // invariant: tail(lo) ≥ α; tail(hi) < α or hi = n + 1
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (upper_tail(chunks, mid, rate_) < alpha_ ? hi : lo) = mid;
  }
  memo_.emplace(chunks, hi);
  return hi;
}

std::optional<ChanceFloor> chance_floor(const Threshold& page_rule) {
  if (!page_rule.binomial) return std::nullopt;
  return ChanceFloor(page_rule.value, page_rule.alpha);
}

std::optional<ChanceFloor> chance_floor(const Threshold& page_rule, double resolved_rate) {
  if (!page_rule.binomial) return std::nullopt;
  return ChanceFloor(resolved_rate, page_rule.alpha);
}

std::uint64_t required_labeled(std::optional<ChanceFloor>& floor, std::uint64_t min_labeled, std::uint64_t chunks) {
  return floor ? std::max(min_labeled, floor->min_labeled(chunks)) : min_labeled;
}

}  // namespace crd::detect
