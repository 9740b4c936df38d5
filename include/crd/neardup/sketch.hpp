// The two sketches of Henzinger 2006, §2 over a page's token sequence, with the paper's parameters as
// defaults (every one is a crd neardup option):
//   Alg. B (Broder et al., as Fetterly et al.): shingles of k tokens; m min-values under m fixed
//     hash functions; m' supershingles, each the fingerprint of l = m / m' consecutive min-values.
//   Alg. C (Charikar): each distinct token projected onto b random ±1 coordinates, weighted by
//     its frequency, summed; a bit per coordinate, set where the sum is positive.
// The hash functions are fingerprint.hpp's, fixed: the same page gives the same sketch on any
// machine and rank count.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

namespace crd::neardup {

struct SketchParams {
  std::uint32_t k = 8;                  // tokens per shingle
  std::uint32_t m = 84;                 // min-values (hash functions)
  std::uint32_t m_prime = 6;            // supershingles; l = m / m_prime min-values each
  std::uint32_t b = 384;                // simhash bits (a multiple of 64)
  std::uint32_t pieces = 12;            // simhash pieces for candidate buckets (b / pieces bits each, ≤ 64)
  std::uint32_t min_shingles = 0;       // fewer distinct shingles: no sketch, matched only when identical (0: off)
  std::uint32_t jaccard_sample = 1024;  // k of the bottom-k Jaccard sample (jaccard_sample.hpp), with --min-jaccard

  std::uint32_t l() const { return m / m_prime; }
  std::uint32_t piece_bits() const { return b / pieces; }
  // "" if the parameters fit together, else why not (names the options).
  std::string_view problem() const;
};

// Both sketches of one page: m' supershingles and b bits as b / 64 words (bit i is word i / 64,
// bit i % 64). An empty token sequence has no sketch (callers skip it), nor has a page of fewer
// than min_shingles distinct shingles: a stub's few shingles are mostly its template's, so one name of its
// own is all that tells two stubs apart and their Jaccard says little (it still joins the pages
// whose token sequence is identical to its own).
struct Sketch {
  std::vector<std::uint64_t> super;
  std::vector<std::uint64_t> bits;
  static constexpr auto fields() { return std::tuple(&Sketch::super, &Sketch::bits); }
  bool operator==(const Sketch&) const = default;
};

// The m min-values of the shingle set (text/shingles.hpp) under f_i(x) = mix64(x ^ seed(MinHash, i)).
std::vector<std::uint64_t> min_values(std::span<const std::uint64_t> shingles, std::uint32_t m);

// Supershingle j: fingerprint of min-values j·l … (j+1)·l − 1.
std::vector<std::uint64_t> supershingles(std::span<const std::uint64_t> min_values, std::uint32_t m_prime);

// Charikar's b-bit projection of the tokens' frequencies.
std::vector<std::uint64_t> simhash(std::span<const std::uint64_t> tokens, std::uint32_t b);

// With `sample`, also the page's bottom-k Jaccard sample of params.jaccard_sample values
// (jaccard_sample.hpp; left empty when the page gets no sketch).
Sketch sketch(std::span<const std::uint64_t> tokens, const SketchParams& params,
              std::vector<std::uint32_t>* sample = nullptr);

// B-similarity: supershingle positions that agree. C-similarity: bits that agree.
std::uint32_t b_similarity(const Sketch& a, const Sketch& b);
std::uint32_t c_similarity(const Sketch& a, const Sketch& b);

// Simhash piece p (bits p·w … p·w + w − 1, w = piece_bits), as a number.
std::uint64_t simhash_piece(const Sketch& s, std::uint32_t p, std::uint32_t piece_bits);

}  // namespace crd::neardup
