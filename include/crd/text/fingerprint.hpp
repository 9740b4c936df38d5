// The fixed 64-bit hash functions of crd neardup (docs/neardup.md spells them out, and
// tests/neardup/reference_sketch.py recomputes them independently). They stand in for the paper's
// Rabin fingerprints: any fixed, well-mixed 64-bit function serves, and these are short enough
// to be re-implemented anywhere, so a result can be checked outside crd.
#pragma once

#include <cstdint>
#include <string_view>

namespace crd::text {

// SplitMix64's output function (Steele, Lea, Flood 2014): a bijection of 64-bit words with full
// avalanche. Every other function here is built from it.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Seeds of the function families, one domain each (high 32 bits), the index in the low 32 bits:
// no two functions of crd neardup share a seed.
enum class Domain : std::uint64_t { Shingle = 1, MinHash = 2, Supershingle = 3, Projection = 4, Sample = 5 };
constexpr std::uint64_t seed(Domain d, std::uint64_t index) noexcept {
  return mix64((static_cast<std::uint64_t>(d) << 32) | (index & 0xFFFFFFFFull));
}

// FNV-1a 64, a byte at a time: the state before any byte, and one byte's step. The tokenizer
// hashes a word's bytes as it scans them, with these.
inline constexpr std::uint64_t kFnvBasis = 0xCBF29CE484222325ull;
constexpr std::uint64_t fnv_step(std::uint64_t h, char c) noexcept {
  return (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
}

// A term's token: FNV-1a 64 of its bytes, then mix64 (FNV alone mixes its low bits poorly).
constexpr std::uint64_t term_token(std::string_view term) noexcept {
  std::uint64_t h = kFnvBasis;
  for (const char c : term) h = fnv_step(h, c);
  return mix64(h);
}

}  // namespace crd::text
