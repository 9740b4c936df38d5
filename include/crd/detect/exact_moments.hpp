// ExactMoments: count, mean and σ of values in [0, 1] that come out bit-identical however the
// values are split over ranks and in whatever order they are added.
//
// Floating-point sums depend on the order of addition, so a mean computed from per-rank partial
// sums would change in its last bits with the rank count — and a page at the threshold could flip
// its flag. Instead each value is rounded once to a multiple of 2^-60 and summed in 128-bit
// integers, which is exact and associative; the variance E[x²] − E[x]² is then formed from exact
// sums, so it has none of the cancellation error of a naive floating-point formula.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "crd/core/uint128.hpp"

namespace crd::detect {

class ExactMoments {
 public:
  static constexpr int kFractionBits = 60;

  void add(double x);  // x is clamped to [0, 1]
  void merge(const ExactMoments& other);

  std::uint64_t count() const { return n_; }
  double mean() const;
  double sigma() const;  // population standard deviation; 0 when count < 2

  // Five 64-bit words, for exchanging between ranks.
  void encode(std::vector<std::uint64_t>& out) const;
  static ExactMoments decode(std::span<const std::uint64_t> words);

  // The fixed-point form of x, also used to sum containment within a neighborhood.
  static std::uint64_t to_fixed(double x);
  static double from_fixed(uint128 sum, std::uint64_t n);

 private:
  std::uint64_t n_ = 0;
  uint128 sum_ = 0;
  uint128 sum_sq_ = 0;
};

}  // namespace crd::detect
