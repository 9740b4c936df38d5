// SHA-1's compression function on SHA-NI for N independent messages at once (hash-internal:
// DocumentHasher's two lanes, and perf/bench_sha1's measure of what a core allows). The rounds
// follow FIPS 180-4: 80 rounds in 20 groups of four; sha1rnds4 does a group, sha1nexte derives the
// next group's E from the A of the group before, sha1msg1/sha1msg2 extend the message schedule.
#pragma once

#include <cpuid.h>
#include <immintrin.h>

#include <cstdint>

namespace crd::sha1_ni {

inline constexpr std::uint32_t kInit[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};

inline bool cpu_has_sha_ni() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & bit_SSE4_1) == 0 || (c & bit_SSSE3) == 0) return false;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return false;
  return (b & bit_SHA) != 0;
}

#define CRD_SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

CRD_SHA_TARGET inline __m128i load_words(const unsigned char* p) {
  // Big-endian words, the first in the highest lane, as sha1rnds4 expects.
  const __m128i reverse = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
  return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), reverse);
}

// One 64-byte block for each of N independent states, interleaved group by group so that the
// groups of one lane fill the other's waits.
template <int N>
CRD_SHA_TARGET inline void compress(std::uint32_t* const (&state)[N], const unsigned char* const (&block)[N]) {
  __m128i abcd[N], abcd_in[N], e_in[N], before[N], w[N][4];
  for (int k = 0; k < N; ++k) {
    abcd[k] = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state[k])), 0x1B);
    e_in[k] = _mm_set_epi32(static_cast<int>(state[k][4]), 0, 0, 0);
    abcd_in[k] = abcd[k];
    for (int j = 0; j < 4; ++j) w[k][j] = load_words(block[k] + 16 * j);
  }
  // Group g uses schedule words 4g..4g+3: the first four loaded, then each from the four before.
#define CRD_SHA1_GROUP(g)                                                                                              \
  for (int k = 0; k < N; ++k) {                                                                                        \
    if ((g) >= 4)                                                                                                      \
      w[k][(g)&3] =                                                                                                    \
          _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(w[k][(g)&3], w[k][((g) + 1) & 3]), w[k][((g) + 2) & 3]), \
                             w[k][((g) + 3) & 3]);                                                                     \
    const __m128i e = (g) == 0 ? _mm_add_epi32(e_in[k], w[k][0]) : _mm_sha1nexte_epu32(before[k], w[k][(g)&3]);        \
    before[k] = abcd[k];                                                                                               \
    abcd[k] = _mm_sha1rnds4_epu32(abcd[k], e, (g) / 5);                                                                \
  }
  // One line per five groups: clang-format does not settle on a run of macro calls.
  // clang-format off
  CRD_SHA1_GROUP(0) CRD_SHA1_GROUP(1) CRD_SHA1_GROUP(2) CRD_SHA1_GROUP(3) CRD_SHA1_GROUP(4)
  CRD_SHA1_GROUP(5) CRD_SHA1_GROUP(6) CRD_SHA1_GROUP(7) CRD_SHA1_GROUP(8) CRD_SHA1_GROUP(9)
  CRD_SHA1_GROUP(10) CRD_SHA1_GROUP(11) CRD_SHA1_GROUP(12) CRD_SHA1_GROUP(13) CRD_SHA1_GROUP(14)
  CRD_SHA1_GROUP(15) CRD_SHA1_GROUP(16) CRD_SHA1_GROUP(17) CRD_SHA1_GROUP(18) CRD_SHA1_GROUP(19)
#undef CRD_SHA1_GROUP
  for (int k = 0; k < N; ++k) {
    // clang-format on
    const __m128i e = _mm_sha1nexte_epu32(before[k], e_in[k]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state[k]), _mm_shuffle_epi32(_mm_add_epi32(abcd[k], abcd_in[k]), 0x1B));
    state[k][4] = static_cast<std::uint32_t>(_mm_extract_epi32(e, 3));
  }
}

CRD_SHA_TARGET inline void compress_one(std::uint32_t* s, const unsigned char* b) {
  std::uint32_t* const states[1] = {s};
  const unsigned char* const blocks[1] = {b};
  compress<1>(states, blocks);
}

CRD_SHA_TARGET inline void compress_two(std::uint32_t* s0, const unsigned char* b0, std::uint32_t* s1,
                                        const unsigned char* b1) {
  std::uint32_t* const states[2] = {s0, s1};
  const unsigned char* const blocks[2] = {b0, b1};
  compress<2>(states, blocks);
}

}  // namespace crd::sha1_ni
