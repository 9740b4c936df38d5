// The sentence similarity of Campbell, Chen & Smith 2000 (§6): the similarity pair of two documents and
// where their overlap lies (the bit vectors and the overlap distribution at granularity k).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "crd/hash/digest.hpp"

namespace crd::detect {

// sim(d1, d2) = ⟨|d1∩d2|/|d1|, |d1∩d2|/|d2|⟩: the fraction of d1 found in d2, then of d2 in d1.
struct SimilarityPair {
  double first = 0;
  double second = 0;
};

// The two terms from counts: `matched` of `size` sentences; an empty document gives 0.
double similarity_term(std::uint64_t matched, std::uint64_t size) noexcept;

// Two documents compared, each a sequence of sentence hashes in document order.
struct Overlap {
  std::vector<bool> in_a;               // B1: sentence i of a occurs somewhere in b
  std::vector<bool> in_b;               // B2: sentence j of b occurs somewhere in a
  std::vector<std::uint32_t> matching;    // each distinct common sentence: its first position in a, ascending
  std::vector<std::uint32_t> matching_b;  // the same sentences' first positions in b
  SimilarityPair pair;                  // ⟨set bits of B1 / |a|, set bits of B2 / |b|⟩
};

// With no sentence repeated inside a document, pair is exactly the paper's; a sentence repeated
// in a counts at every position (as in the bit vector), so each term stays within [0, 1].
Overlap overlap(std::span<const Digest> a, std::span<const Digest> b);

// The paper's second output: the bit vector cut into runs of k entries (the last may be shorter),
// each given as its number of set bits. k = 0 is taken as 1 (the bit vector itself).
std::vector<std::uint32_t> overlap_distribution(const std::vector<bool>& bits, std::uint32_t k);

}  // namespace crd::detect
