// Two-lane SHA-1 on SHA-NI (see document_hasher.hpp for why it is written here). The rounds follow
// FIPS 180-4: 80 rounds in 20 groups of four; sha1rnds4 does a group, sha1nexte derives the next
// group's E from the A of the group before, sha1msg1/sha1msg2 extend the message schedule.
#include <cpuid.h>
#include <immintrin.h>

#include <cstring>

#include "crd/hash/document_hasher.hpp"

namespace crd {
namespace {

constexpr std::uint32_t kInit[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};

bool cpu_has_sha_ni() {
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
#define CRD_SHA1_GROUP(g)                                                                                      \
  for (int k = 0; k < N; ++k) {                                                                                \
    if ((g) >= 4)                                                                                              \
      w[k][(g) & 3] = _mm_sha1msg2_epu32(                                                                      \
          _mm_xor_si128(_mm_sha1msg1_epu32(w[k][(g) & 3], w[k][((g) + 1) & 3]), w[k][((g) + 2) & 3]),         \
          w[k][((g) + 3) & 3]);                                                                                \
    const __m128i e = (g) == 0 ? _mm_add_epi32(e_in[k], w[k][0]) : _mm_sha1nexte_epu32(before[k], w[k][(g) & 3]); \
    before[k] = abcd[k];                                                                                       \
    abcd[k] = _mm_sha1rnds4_epu32(abcd[k], e, (g) / 5);                                                       \
  }
  CRD_SHA1_GROUP(0) CRD_SHA1_GROUP(1) CRD_SHA1_GROUP(2) CRD_SHA1_GROUP(3) CRD_SHA1_GROUP(4)
  CRD_SHA1_GROUP(5) CRD_SHA1_GROUP(6) CRD_SHA1_GROUP(7) CRD_SHA1_GROUP(8) CRD_SHA1_GROUP(9)
  CRD_SHA1_GROUP(10) CRD_SHA1_GROUP(11) CRD_SHA1_GROUP(12) CRD_SHA1_GROUP(13) CRD_SHA1_GROUP(14)
  CRD_SHA1_GROUP(15) CRD_SHA1_GROUP(16) CRD_SHA1_GROUP(17) CRD_SHA1_GROUP(18) CRD_SHA1_GROUP(19)
#undef CRD_SHA1_GROUP
  for (int k = 0; k < N; ++k) {
    const __m128i e = _mm_sha1nexte_epu32(before[k], e_in[k]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state[k]), _mm_shuffle_epi32(_mm_add_epi32(abcd[k], abcd_in[k]), 0x1B));
    state[k][4] = static_cast<std::uint32_t>(_mm_extract_epi32(e, 3));
  }
}

CRD_SHA_TARGET void compress_one(std::uint32_t* s, const unsigned char* b) {
  std::uint32_t* const states[1] = {s};
  const unsigned char* const blocks[1] = {b};
  compress<1>(states, blocks);
}

CRD_SHA_TARGET void compress_two(std::uint32_t* s0, const unsigned char* b0, std::uint32_t* s1, const unsigned char* b1) {
  std::uint32_t* const states[2] = {s0, s1};
  const unsigned char* const blocks[2] = {b0, b1};
  compress<2>(states, blocks);
}

Digest digest_of(const std::uint32_t (&state)[5]) {
  Digest d;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) d.bytes[static_cast<std::size_t>(4 * i + j)] = static_cast<std::uint8_t>(state[i] >> (24 - 8 * j));
  return d;
}

}  // namespace

void DocumentHasher::Blocks::reset(std::string_view message) {
  data = reinterpret_cast<const unsigned char*>(message.data());
  full = message.size() / 64;
  next = 0;
  const std::size_t rest = message.size() - 64 * full;
  tail_blocks = rest + 9 <= 64 ? 1 : 2;  // the 0x80 byte and the 8-byte length must fit
  std::memset(tail, 0, 64 * tail_blocks);
  if (rest > 0) std::memcpy(tail, data + 64 * full, rest);
  tail[rest] = 0x80;
  const std::uint64_t bits = static_cast<std::uint64_t>(message.size()) * 8;
  for (int i = 0; i < 8; ++i) tail[64 * tail_blocks - 1 - static_cast<std::size_t>(i)] = static_cast<unsigned char>(bits >> (8 * i));
}

DocumentHasher::DocumentHasher(bool lanes) : lanes_(lanes && cpu_has_sha_ni()) {}

void DocumentHasher::start(std::string_view document) {
  document_ = document;
  if (!lanes_) return;
  doc_.reset(document);
  std::memcpy(doc_state_, kInit, sizeof kInit);
}

Digest DocumentHasher::chunk(std::string_view chunk) {
  if (!lanes_) return openssl_(chunk);
  chunk_.reset(chunk);
  std::uint32_t state[5];
  std::memcpy(state, kInit, sizeof kInit);
  while (chunk_.left() > 0) {
    const unsigned char* b = chunk_.take();
    if (doc_.left() > 0) {
      compress_two(state, b, doc_state_, doc_.take());
    } else {
      compress_one(state, b);
    }
  }
  return digest_of(state);
}

Digest DocumentHasher::finish() {
  if (!lanes_) return openssl_(document_);
  while (doc_.left() > 0) compress_one(doc_state_, doc_.take());
  return digest_of(doc_state_);
}

}  // namespace crd
