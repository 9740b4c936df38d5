// AVX2 whitespace normalization: 32 bytes per step; runs are squeezed out with byte shuffles.
#include "whitespace.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#define CRD_HAVE_AVX2_KERNEL 1
#include <immintrin.h>
#endif

#include <array>
#include <cstdint>

namespace crd::chunk::detail {

#if CRD_HAVE_AVX2_KERNEL

namespace {

// For each 8-bit keep mask, the shuffle that gathers the kept bytes of an 8-byte group to its
// front (indices of the set bits in order; unused slots 0x80 give zero, later overwritten).
struct CompactTable {
  alignas(16) std::array<std::array<std::uint8_t, 16>, 256> shuffle{};
  std::array<std::uint8_t, 256> count{};
  constexpr CompactTable() {
    for (unsigned m = 0; m < 256; ++m) {
      unsigned k = 0;
      for (unsigned b = 0; b < 8; ++b) {
        if ((m >> b) & 1U) shuffle[m][k++] = static_cast<std::uint8_t>(b);
      }
      count[m] = static_cast<std::uint8_t>(k);
      for (; k < 16; ++k) shuffle[m][k] = 0x80;
    }
  }
};

// Built at compile time, so it is ready before any static initializer could need it.
constexpr CompactTable kCompact;

__attribute__((target("avx2,popcnt"))) inline char* compact8(__m128i group, unsigned keep, char* o) noexcept {
  const __m128i shuf = _mm_load_si128(reinterpret_cast<const __m128i*>(kCompact.shuffle[keep].data()));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(o), _mm_shuffle_epi8(group, shuf));
  return o + kCompact.count[keep];
}

__attribute__((target("avx2,popcnt"))) std::size_t normalize_avx2(const char* in, std::size_t n,
                                                                  char* out) noexcept {
  char* o = out;
  std::uint32_t prev_space = 1;  // leading whitespace is dropped
  const __m256i space = _mm256_set1_epi8(' ');
  const __m256i nine = _mm256_set1_epi8(9);
  const __m256i four = _mm256_set1_epi8(4);
  const __m256i eleven = _mm256_set1_epi8(11);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    // Whitespace = ' ' or 9..13 except 11 (vertical tab is not HTML whitespace).
    const __m256i off = _mm256_sub_epi8(v, nine);
    const __m256i in_9_13 = _mm256_cmpeq_epi8(_mm256_min_epu8(off, four), off);
    const __m256i ws = _mm256_or_si256(_mm256_cmpeq_epi8(v, space),
                                       _mm256_andnot_si256(_mm256_cmpeq_epi8(v, eleven), in_9_13));
    const auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(ws));
    if (mask == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), v);
      o += 32;
      prev_space = 0;
      continue;
    }
    const __m256i spaced = _mm256_blendv_epi8(v, space, ws);
    // A whitespace byte goes when the byte before it was whitespace too.
    const std::uint32_t drop = mask & ((mask << 1) | prev_space);
    prev_space = mask >> 31;
    if (drop == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), spaced);
      o += 32;
      continue;
    }
    const std::uint32_t keep = ~drop;
    const __m128i lo = _mm256_castsi256_si128(spaced);
    const __m128i hi = _mm256_extracti128_si256(spaced, 1);
    o = compact8(lo, keep & 0xff, o);
    o = compact8(_mm_unpackhi_epi64(lo, lo), (keep >> 8) & 0xff, o);
    o = compact8(hi, (keep >> 16) & 0xff, o);
    o = compact8(_mm_unpackhi_epi64(hi, hi), keep >> 24, o);
  }
  // The last < 32 bytes, one at a time, carrying the whitespace state across.
  o += normalize_tail(reinterpret_cast<const unsigned char*>(in + i), n - i, o, prev_space != 0);
  return static_cast<std::size_t>(o - out);
}

}  // namespace

NormalizeFn normalize_avx2_kernel() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? &normalize_avx2 : nullptr;
}

#else

NormalizeFn normalize_avx2_kernel() noexcept { return nullptr; }

#endif

}  // namespace crd::chunk::detail
