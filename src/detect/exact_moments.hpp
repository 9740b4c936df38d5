// ExactMoments: count, mean and σ of values in [0, 1] that come out bit-identical however the
// values are split over ranks and in whatever order they are added.
//
// Floating-point sums depend on the order of addition, so a mean computed from per-rank partial
// sums would change in its last bits with the rank count — and a page at the threshold could flip
// its flag. Instead each value is rounded once to f = round(x · 2^60) and the moments are kept as
// exact integers: n, Σf (128 bits) and Σf² (256 bits). Integer addition is associative, and the
// variance is formed exactly as (n·Σf² − (Σf)²) / n², which is never negative and is exactly 0
// when all values are equal — none of the cancellation error of a floating-point formula.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "crd/base/uint128.hpp"

namespace crd::detect {

class ExactMoments {
 public:
  static constexpr int kFractionBits = 60;
  static constexpr std::size_t kWords = 7;  // encoded size in 64-bit words

  void add(double x);  // x is clamped to [0, 1]; NaN counts as 0
  void merge(const ExactMoments& other);

  std::uint64_t count() const { return n_; }
  double mean() const;
  double sigma() const;  // population standard deviation; 0 when count < 2

  void encode(std::vector<std::uint64_t>& out) const;
  static ExactMoments decode(std::span<const std::uint64_t> words);

  // The fixed-point form of x, also used to sum containment within a neighborhood.
  static std::uint64_t to_fixed(double x);
  static double from_fixed(uint128 sum, std::uint64_t n);

 private:
  std::uint64_t n_ = 0;
  uint128 sum_ = 0;
  std::array<std::uint64_t, 4> sum_sq_{};  // little-endian limbs
};

}  // namespace crd::detect
