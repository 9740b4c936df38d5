// Shingles: the fingerprints of every run of k consecutive tokens of a page, in sequence order.
// neardup's Alg. B sketch (Henzinger 2006, §2), quilts' grams and the winnow chunker's grams are
// all these values, so one definition serves them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace crd::text {

// Shingle fingerprints, in sequence order: n - k + 1 of them; one over all tokens if 0 < n < k.
// Shingle i is mix64(… mix64(mix64(seed(Shingle, 0) ^ t[i]) ^ t[i + 1]) … ^ t[i + k − 1])
// (fingerprint.hpp).
std::vector<std::uint64_t> shingles(std::span<const std::uint64_t> tokens, std::uint32_t k);
// The same into `out` (replaced), whose capacity a caller can reuse from page to page.
void shingles(std::span<const std::uint64_t> tokens, std::uint32_t k, std::vector<std::uint64_t>& out);

}  // namespace crd::text
