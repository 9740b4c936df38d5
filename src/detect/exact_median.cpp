// Exact median and MAD across ranks by bisection on fixed-point values.
#include "exact_median.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "crd/comm/collectives.hpp"
#include "exact_moments.hpp"

namespace crd::detect {

namespace {

// The order statistics lo_rank and hi_rank (0-based, global) of the values, all in [0, limit].
// Bisection: the k-th smallest is the least v with #(x ≤ v) > k; both ranks share each allreduce.
struct Pair {
  std::uint64_t lo = 0, hi = 0;
};
Pair order_statistics(comm::Transport& transport, const std::vector<std::uint64_t>& values, std::uint64_t limit,
                      std::uint64_t lo_rank, std::uint64_t hi_rank) {
  std::uint64_t a_lo = 0, a_hi = limit, b_lo = 0, b_hi = limit;
  while (a_lo < a_hi || b_lo < b_hi) {
    const std::uint64_t a_mid = a_lo + (a_hi - a_lo) / 2, b_mid = b_lo + (b_hi - b_lo) / 2;
    std::uint64_t counts[2] = {0, 0};
    for (std::uint64_t v : values) {
      counts[0] += v <= a_mid;
      counts[1] += v <= b_mid;
    }
    comm::sum(transport, counts);
    if (counts[0] > lo_rank) a_hi = a_mid; else a_lo = std::min(a_mid + 1, a_hi);
    if (counts[1] > hi_rank) b_hi = b_mid; else b_lo = std::min(b_mid + 1, b_hi);
  }
  return {a_lo, b_lo};
}

}  // namespace

MedianMad exact_median_mad(comm::Transport& transport, std::span<const double> values) {
  const std::uint64_t n = comm::sum(transport, values.size());
  if (n == 0) return {};
  const std::uint64_t lo_rank = (n - 1) / 2, hi_rank = n / 2;

  // Doubled fixed-point values, so that the median (a + b) / 2 of an even count is an integer.
  constexpr std::uint64_t kOne = std::uint64_t{1} << ExactMoments::kFractionBits;
  std::vector<std::uint64_t> twice;
  twice.reserve(values.size());
  for (double x : values) twice.push_back(2 * ExactMoments::to_fixed(x));
  const Pair m = order_statistics(transport, twice, 2 * kOne, lo_rank, hi_rank);
  const std::uint64_t median2 = (m.lo + m.hi) / 2;  // 2 × median in fixed point, exact

  for (auto& v : twice) v = v > median2 ? v - median2 : median2 - v;
  const Pair d = order_statistics(transport, twice, 2 * kOne, lo_rank, hi_rank);
  // median2 is 2·median; (d.lo + d.hi) is 2·2·MAD.
  return {ExactMoments::from_fixed(median2, 2), ExactMoments::from_fixed(static_cast<uint128>(d.lo) + d.hi, 4)};
}

}  // namespace crd::detect
