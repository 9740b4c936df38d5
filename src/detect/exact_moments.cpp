// Exact fixed-point moments, with the little 256-bit arithmetic they need.
#include "exact_moments.hpp"

#include <algorithm>
#include <cmath>

namespace crd::detect {

namespace {

constexpr long double kScale = 1152921504606846976.0L;  // 2^60
using Limbs = std::array<std::uint64_t, 5>;             // enough for n·Σf² (≤ 2^304)

void add_into(Limbs& acc, const Limbs& v) {
  uint128 carry = 0;
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const uint128 s = static_cast<uint128>(acc[i]) + v[i] + carry;
    acc[i] = static_cast<std::uint64_t>(s);
    carry = s >> 64;
  }
}

// a · b for a of up to 5 limbs and b of up to 2 limbs (the result must fit 5 limbs).
Limbs multiply(const Limbs& a, uint128 b) {
  const std::uint64_t bl[2] = {static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(b >> 64)};
  Limbs out{};
  for (std::size_t j = 0; j < 2; ++j) {
    uint128 carry = 0;
    for (std::size_t i = 0; i + j < out.size(); ++i) {
      const uint128 p = static_cast<uint128>(a[i]) * bl[j] + out[i + j] + carry;
      out[i + j] = static_cast<std::uint64_t>(p);
      carry = p >> 64;
    }
  }
  return out;
}

Limbs from_u128(uint128 v) { return {static_cast<std::uint64_t>(v), static_cast<std::uint64_t>(v >> 64), 0, 0, 0}; }

// a − b, given a ≥ b.
Limbs subtract(const Limbs& a, const Limbs& b) {
  Limbs out{};
  std::uint64_t borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const uint128 d = static_cast<uint128>(a[i]) - b[i] - borrow;
    out[i] = static_cast<std::uint64_t>(d);
    borrow = (d >> 64) != 0 ? 1 : 0;
  }
  return out;
}

long double to_long_double(const Limbs& v) {
  long double out = 0;
  for (std::size_t i = v.size(); i-- > 0;) out = out * 18446744073709551616.0L + static_cast<long double>(v[i]);
  return out;
}

}  // namespace

std::uint64_t ExactMoments::to_fixed(double x) {
  if (std::isnan(x)) return 0;
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
  const uint128 sq = static_cast<uint128>(f) * f;
  Limbs acc{sum_sq_[0], sum_sq_[1], sum_sq_[2], sum_sq_[3], 0};
  add_into(acc, from_u128(sq));
  std::copy_n(acc.begin(), 4, sum_sq_.begin());
}

void ExactMoments::merge(const ExactMoments& other) {
  n_ += other.n_;
  sum_ += other.sum_;
  Limbs acc{sum_sq_[0], sum_sq_[1], sum_sq_[2], sum_sq_[3], 0};
  add_into(acc, {other.sum_sq_[0], other.sum_sq_[1], other.sum_sq_[2], other.sum_sq_[3], 0});
  std::copy_n(acc.begin(), 4, sum_sq_.begin());
}

double ExactMoments::mean() const { return from_fixed(sum_, n_); }

double ExactMoments::sigma() const {
  if (n_ < 2) return 0;
  // n·Σf² − (Σf)² ≥ 0 by Cauchy–Schwarz, computed exactly.
  const Limbs n_sum_sq = multiply({sum_sq_[0], sum_sq_[1], sum_sq_[2], sum_sq_[3], 0}, n_);
  const Limbs sum_squared = multiply(from_u128(sum_), sum_);
  const long double numerator = to_long_double(subtract(n_sum_sq, sum_squared));
  const long double n = static_cast<long double>(n_);
  return static_cast<double>(std::sqrt(numerator) / n / kScale);
}

void ExactMoments::encode(std::vector<std::uint64_t>& out) const {
  out.push_back(n_);
  out.push_back(static_cast<std::uint64_t>(sum_));
  out.push_back(static_cast<std::uint64_t>(sum_ >> 64));
  out.insert(out.end(), sum_sq_.begin(), sum_sq_.end());
}

ExactMoments ExactMoments::decode(std::span<const std::uint64_t> w) {
  ExactMoments m;
  m.n_ = w[0];
  m.sum_ = (static_cast<uint128>(w[2]) << 64) | w[1];
  std::copy_n(w.begin() + 3, 4, m.sum_sq_.begin());
  return m;
}

}  // namespace crd::detect
