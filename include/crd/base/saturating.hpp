// Addition of 64-bit counts that stops at the largest value instead of wrapping to a small one.
#pragma once

#include <cstdint>
#include <limits>

namespace crd {

// Counts read from result files (crd merge) may be anything up to 2^64 − 1; a sum that wrapped
// would turn the most frequent chunk into a rare one. Saturated sums stay the largest.
inline constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

inline constexpr std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out = 0;
  return __builtin_add_overflow(a, b, &out) ? kSaturated : out;
}

inline constexpr std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out = 0;
  return __builtin_mul_overflow(a, b, &out) ? kSaturated : out;
}

}  // namespace crd
