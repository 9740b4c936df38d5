// Exact fixed-point moments.
#include "crd/detect/exact_moments.hpp"

#include <algorithm>
#include <cmath>

namespace crd::detect {

namespace {
constexpr long double kScale = 1152921504606846976.0L;  // 2^60
}

std::uint64_t ExactMoments::to_fixed(double x) {
  const long double clamped = std::clamp(static_cast<long double>(x), 0.0L, 1.0L);
  return static_cast<std::uint64_t>(std::llroundl(clamped * kScale));
}

double ExactMoments::from_fixed(uint128 sum, std::uint64_t n) {
  if (n == 0) return 0;
  return static_cast<double>(static_cast<long double>(sum) / kScale / static_cast<long double>(n));
}

void ExactMoments::add(double x) {
  const std::uint64_t f = to_fixed(x);
  ++n_;
  sum_ += f;
  // f² / 2^60 rounded to nearest: x² in the same fixed-point scale.
  const uint128 sq = static_cast<uint128>(f) * f;
  sum_sq_ += (sq + (static_cast<uint128>(1) << 59)) >> 60;
}

void ExactMoments::merge(const ExactMoments& other) {
  n_ += other.n_;
  sum_ += other.sum_;
  sum_sq_ += other.sum_sq_;
}

double ExactMoments::mean() const { return from_fixed(sum_, n_); }

double ExactMoments::sigma() const {
  if (n_ < 2) return 0;
  const long double n = static_cast<long double>(n_);
  const long double mean = static_cast<long double>(sum_) / kScale / n;
  const long double mean_sq = static_cast<long double>(sum_sq_) / kScale / n;
  const long double var = mean_sq - mean * mean;
  return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
}

void ExactMoments::encode(std::vector<std::uint64_t>& out) const {
  out.push_back(n_);
  out.push_back(static_cast<std::uint64_t>(sum_));
  out.push_back(static_cast<std::uint64_t>(sum_ >> 64));
  out.push_back(static_cast<std::uint64_t>(sum_sq_));
  out.push_back(static_cast<std::uint64_t>(sum_sq_ >> 64));
}

ExactMoments ExactMoments::decode(std::span<const std::uint64_t> w) {
  ExactMoments m;
  m.n_ = w[0];
  m.sum_ = (static_cast<uint128>(w[2]) << 64) | w[1];
  m.sum_sq_ = (static_cast<uint128>(w[4]) << 64) | w[3];
  return m;
}

}  // namespace crd::detect
