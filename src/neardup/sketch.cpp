// Alg. B and Alg. C sketches (Henzinger 2006, §2) with the fixed functions of fingerprint.hpp.
#include "crd/neardup/sketch.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "crd/neardup/jaccard_sample.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/shingles.hpp"
#include "crd/text/sort_hashes.hpp"

namespace crd::neardup {

using text::Domain;
using text::mix64;
using text::seed;
using text::shingles;
using text::sort_hashes;

std::string_view SketchParams::problem() const {
  if (k == 0) return "--shingle-tokens must be at least 1";
  if (m == 0 || m_prime == 0 || m % m_prime != 0) return "--minvalues must be a positive multiple of --supershingles";
  if (b == 0 || b % 64 != 0) return "--simhash-bits must be a positive multiple of 64";
  if (pieces == 0 || b % pieces != 0 || b / pieces > 64)
    return "--simhash-pieces must divide --simhash-bits into pieces of at most 64 bits";
  return {};
}

namespace {

// The m × shingles hash evaluations are most of Alg. B's time. With 64-bit vector multiplies
// (AVX-512DQ, x86-64-v4) GCC vectorizes this loop over i, ~8× faster on this machine's CPUs
// (perf/RESULTS.md); a run-time clone keeps the binary portable. Same results either way: the
// functions are exact integer arithmetic.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v4", "default"), optimize("O3")))
#endif
void fold_min_values(const std::uint64_t* distinct, std::size_t n, const std::uint64_t* seeds, std::size_t m,
                     std::uint64_t* mins) {
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t s = distinct[k];
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t v = mix64(s ^ seeds[i]);
      mins[i] = v < mins[i] ? v : mins[i];
    }
  }
}

// Every distinct token's ±frequency projection summed onto b = 64 · words coordinates
// (vectorized like fold_min_values).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v4", "default"), optimize("O3")))
#endif
void add_projections(const std::uint64_t* tokens, const std::int64_t* frequencies, std::size_t n,
                     const std::uint64_t* seeds, std::size_t words, std::int64_t* sum) {
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t r = mix64(tokens[t] ^ seeds[w]);
      std::int64_t* s = sum + 64 * w;
      for (int bit = 0; bit < 64; ++bit) s[bit] += ((r >> bit) & 1) != 0 ? frequencies[t] : -frequencies[t];
    }
  }
}

}  // namespace

std::vector<std::uint64_t> min_values(std::span<const std::uint64_t> shingles, std::uint32_t m) {
  std::vector<std::uint64_t> seeds(m);
  for (std::uint32_t i = 0; i < m; ++i) seeds[i] = seed(Domain::MinHash, i);
  std::vector<std::uint64_t> mins(m, std::numeric_limits<std::uint64_t>::max());
  // Repeated shingles change no minimum: each distinct one is hashed once.
  std::vector<std::uint64_t> distinct(shingles.begin(), shingles.end());
  sort_hashes(distinct);
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  fold_min_values(distinct.data(), distinct.size(), seeds.data(), m, mins.data());
  return mins;
}

std::vector<std::uint64_t> supershingles(std::span<const std::uint64_t> min_values, std::uint32_t m_prime) {
  const std::size_t l = min_values.size() / m_prime;
  std::vector<std::uint64_t> out(m_prime);
  for (std::uint32_t j = 0; j < m_prime; ++j) {
    std::uint64_t h = seed(Domain::Supershingle, j);
    for (std::size_t i = j * l; i < (j + 1) * l; ++i) h = mix64(h ^ min_values[i]);
    out[j] = h;
  }
  return out;
}

std::vector<std::uint64_t> simhash(std::span<const std::uint64_t> tokens, std::uint32_t b) {
  const std::uint32_t words = b / 64;
  std::vector<std::uint64_t> seeds(words);
  for (std::uint32_t w = 0; w < words; ++w) seeds[w] = seed(Domain::Projection, w);
  std::vector<std::uint64_t> sorted(tokens.begin(), tokens.end());
  sort_hashes(sorted);
  std::vector<std::uint64_t> distinct;
  std::vector<std::int64_t> frequency;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    distinct.push_back(sorted[i]);
    frequency.push_back(static_cast<std::int64_t>(j - i));
    i = j;
  }
  std::vector<std::int64_t> sum(b, 0);
  add_projections(distinct.data(), frequency.data(), distinct.size(), seeds.data(), words, sum.data());
  std::vector<std::uint64_t> out(words, 0);
  for (std::uint32_t i = 0; i < b; ++i)
    if (sum[i] > 0) out[i / 64] |= std::uint64_t{1} << (i % 64);
  return out;
}

Sketch sketch(std::span<const std::uint64_t> tokens, const SketchParams& params, std::vector<std::uint32_t>* sample) {
  Sketch s;
  if (tokens.empty()) return s;
  const auto page_shingles = shingles(tokens, params.k);
  if (params.min_shingles > 1) {
    // Distinct shingles: a table of numbers (every digit run a 0 under --normalize-text) has many
    // shingles but one distinct, like every other such table.
    std::vector<std::uint64_t> distinct(page_shingles.begin(), page_shingles.end());
    sort_hashes(distinct);
    if (static_cast<std::size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin()) <
        params.min_shingles)
      return s;
  }
  s.super = supershingles(min_values(page_shingles, params.m), params.m_prime);
  if (sample != nullptr) *sample = jaccard_sample(page_shingles, params.jaccard_sample);
  s.bits = simhash(tokens, params.b);
  return s;
}

std::uint32_t b_similarity(const Sketch& a, const Sketch& b) {
  std::uint32_t same = 0;
  for (std::size_t j = 0; j < a.super.size() && j < b.super.size(); ++j) same += a.super[j] == b.super[j] ? 1 : 0;
  return same;
}

std::uint32_t c_similarity(const Sketch& a, const Sketch& b) {
  std::uint32_t differ = 0;
  for (std::size_t w = 0; w < a.bits.size() && w < b.bits.size(); ++w)
    differ += static_cast<std::uint32_t>(std::popcount(a.bits[w] ^ b.bits[w]));
  return static_cast<std::uint32_t>(64 * std::min(a.bits.size(), b.bits.size())) - differ;
}

std::uint64_t simhash_piece(const Sketch& s, std::uint32_t p, std::uint32_t piece_bits) {
  // Bits p·w … p·w + w − 1 of the sketch (w = piece_bits ≤ 64), bit i of the piece from bit
  // p·w + i: one shift, or two when the piece straddles two words.
  const std::uint32_t first = p * piece_bits;
  const std::uint32_t word = first / 64, shift = first % 64;
  std::uint64_t v = s.bits[word] >> shift;
  if (shift + piece_bits > 64) v |= s.bits[word + 1] << (64 - shift);
  return piece_bits == 64 ? v : v & ((std::uint64_t{1} << piece_bits) - 1);
}

}  // namespace crd::neardup
