// A page's Jaccard sample for crd neardup --min-jaccard: the bottom-k sketch of its distinct
// shingles (Broder 1997's min-wise sample of one permutation, as in Cohen & Kaplan 2007's bottom-k
// sketches). Each distinct shingle s is hashed once, h(s) = the top 32 bits of
// mix64(s ^ seed(Sample, 0)), and the k smallest distinct values are kept, ascending. The k smallest
// of the union A ∪ B are the k smallest of the two samples' union, and one of them is in both sets
// exactly when it is in both samples, so
//     Ĵ = |both among the k smallest of the union| / min(k, |sample A ∪ sample B|)
// is the fraction of a uniform k-subset of A ∪ B that lies in A ∩ B: unbiased, with variance
// J(1 − J)/k · (u − k)/(u − 1) ≤ J(1 − J)/k (u = |A ∪ B|; exact when u ≤ k). One hash per shingle
// instead of one per shingle and min-value, so k = 1024 costs less than the bands' 144 min-values.
// The 32-bit values collide for two distinct shingles with probability 2^-32 per pair.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace crd::neardup {

// The bottom-k sample of a page's shingles (text/shingles.hpp; repeats are ignored).
std::vector<std::uint32_t> jaccard_sample(std::span<const std::uint64_t> shingles, std::uint32_t k);

// The estimate's parts: `both` of the `used` smallest values of the two samples' union are in both.
struct JaccardEstimate {
  std::uint32_t both = 0;
  std::uint32_t used = 0;
  double value() const { return used == 0 ? 0.0 : static_cast<double>(both) / used; }
  // Whether the estimate is at least `threshold` (exactly the same on every machine).
  bool at_least(double threshold) const { return static_cast<double>(both) >= threshold * used; }
};

// Ĵ of two samples taken with the same k (ascending, distinct).
JaccardEstimate estimate_jaccard(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b, std::uint32_t k);

// The estimator's standard deviation at Jaccard j with a sample of k: sqrt(j (1 − j) / k), its
// bound for pages of more than k distinct shingles together.
double jaccard_sd(double j, std::uint32_t k);

}  // namespace crd::neardup
