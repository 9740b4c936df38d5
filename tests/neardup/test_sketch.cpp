// Alg. B and Alg. C sketches against vectors from an independent slow reference
// (tests/neardup/reference_sketch.py, written from docs/neardup.md), and their similarities.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "crd/neardup/sketch.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/shingles.hpp"
#include "support/word_tokens.hpp"

namespace crd::neardup {
namespace {

using text::Domain;
using text::mix64;
using text::seed;
using text::shingles;
using text::term_token;

using crd::testing::tokens_of;

const std::string kSentence = "the quick brown fox jumps over the lazy dog and the quick cat";

TEST(Sketch, MatchesTheReferenceVectors) {
  const auto tokens = tokens_of(kSentence);
  const auto sh = shingles(tokens, 8);
  ASSERT_EQ(sh.size(), 6u);
  EXPECT_EQ(sh[0], 0x3c0611fa73f3eedfull);
  const Sketch s = sketch(tokens, SketchParams{});
  EXPECT_EQ(s.super, (std::vector<std::uint64_t>{0x1c65a31dc8b0c7abull, 0x2420abf159c639f4ull, 0xcb5c07f239b89f65ull,
                                                 0xdef5b52727cf00a4ull, 0x530e9fad71ef99c6ull, 0x7e0b2e0e07304eccull}));
  EXPECT_EQ(s.bits, (std::vector<std::uint64_t>{0x6a9f5996b95c5f7eull, 0xc7c0a55d6672fe05ull, 0x95c91ef898575796ull,
                                                0x3639e7ed971588a2ull, 0x098e687b4f3ec2fcull, 0x030d49c763198e5bull}));
}

TEST(Sketch, FewerTokensThanAShingleAreOneShingle) {
  const Sketch s = sketch(tokens_of("a b c"), SketchParams{});
  EXPECT_EQ(s.super, (std::vector<std::uint64_t>{0x373db77283fe15a0ull, 0x18471876dcb352a6ull, 0x54ea9acd52e8d899ull,
                                                 0x24935a07036ec514ull, 0xc124e88a4223f664ull, 0x82accf3bab4f6e51ull}));
  EXPECT_TRUE(sketch({}, SketchParams{}).super.empty());
}

// --min-shingles: the sentence's 13 tokens are 6 shingles of 8; at 6 it is sketched as without the
// option, at 7 it has no sketch (no bucket: matched only with identical pages).
TEST(Sketch, PagesWithFewerShinglesThanTheMinimumHaveNoSketch) {
  const auto tokens = tokens_of(kSentence);
  SketchParams params;
  const Sketch plain = sketch(tokens, params);
  params.min_shingles = 6;
  EXPECT_EQ(sketch(tokens, params), plain);
  ASSERT_EQ(plain.super.size(), 6u);
  params.min_shingles = 7;
  const Sketch none = sketch(tokens, params);
  EXPECT_TRUE(none.super.empty());
  EXPECT_TRUE(none.bits.empty());
  params.min_shingles = 2;  // fewer tokens than k are one shingle
  EXPECT_TRUE(sketch(tokens_of("a b c"), params).super.empty());
  params.min_shingles = 1;
  EXPECT_EQ(sketch(tokens_of("a b c"), params).super.size(), 6u);
  // Distinct shingles count: 13 tokens, 6 shingles of 8, but only 1 distinct.
  params.min_shingles = 2;
  EXPECT_TRUE(sketch(tokens_of("0 0 0 0 0 0 0 0 0 0 0 0 0"), params).super.empty());
  EXPECT_EQ(sketch(tokens_of("0 0 0 0 0 0 0 0 0 0 0 0 1"), params).super.size(), 6u);
}

TEST(Sketch, RepeatedShinglesDoNotChangeMinValues) {
  const auto once = min_values(shingles(tokens_of("a b c d e f g h i"), 8), 84);
  const auto twice = min_values(shingles(tokens_of("a b c d e f g h i a b c d e f g h i"), 8), 84);
  // The second copy adds shingles spanning the seam, so only check the first list is dominated.
  for (std::size_t i = 0; i < once.size(); ++i) EXPECT_LE(twice[i], once[i]);
  EXPECT_EQ(min_values(std::vector<std::uint64_t>{5, 5, 7}, 84), min_values(std::vector<std::uint64_t>{7, 5}, 84));
}

TEST(Sketch, SimilaritiesCountAgreeingSupershinglesAndBits) {
  Sketch a{{1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 0, 0}};
  Sketch b{{1, 2, 9, 4, 9, 9}, {0b1011, 0, 0, 0, 0, ~std::uint64_t{0}}};
  EXPECT_EQ(b_similarity(a, b), 3u);
  EXPECT_EQ(c_similarity(a, b), 384u - 3u - 64u);
  EXPECT_EQ(c_similarity(a, a), 384u);
}

TEST(Sketch, LongPagesGiveTheDefinitionsValues) {
  // 6,000 tokens from 700 words (repeats, as on a real page): min_values and simhash sort their
  // input by leading byte first from 512 values on; against the definitions, unsorted.
  std::vector<std::uint64_t> tokens;
  for (std::uint64_t i = 0; i < 6000; ++i) tokens.push_back(term_token("w" + std::to_string(mix64(i) % 700)));
  const auto sh = shingles(tokens, 8);
  const auto mins = min_values(sh, 84);
  for (std::uint32_t f = 0; f < 84; ++f) {
    std::uint64_t want = ~std::uint64_t{0};
    for (const std::uint64_t x : sh) want = std::min(want, mix64(x ^ seed(Domain::MinHash, f)));
    ASSERT_EQ(mins[f], want) << f;
  }
  const auto bits = simhash(tokens, 384);
  for (std::uint32_t c = 0; c < 384; ++c) {
    std::int64_t sum = 0;
    for (const std::uint64_t t : tokens)
      sum += ((mix64(t ^ seed(Domain::Projection, c / 64)) >> (c % 64)) & 1) != 0 ? 1 : -1;
    ASSERT_EQ((bits[c / 64] >> (c % 64)) & 1, sum > 0 ? 1u : 0u) << c;
  }
}

TEST(Sketch, PiecesAreConsecutiveBits) {
  Sketch s{{}, {0x0123456789ABCDEFull, 0xFEDCBA9876543210ull}};
  EXPECT_EQ(simhash_piece(s, 0, 32), 0x89ABCDEFull);
  EXPECT_EQ(simhash_piece(s, 1, 32), 0x01234567ull);
  EXPECT_EQ(simhash_piece(s, 2, 32), 0x76543210ull);
  EXPECT_EQ(simhash_piece(s, 1, 64), 0xFEDCBA9876543210ull);
  // Pieces that straddle two words (48 and 40 bits), against the definition bit by bit.
  for (const std::uint32_t width : {48u, 40u, 24u}) {
    for (std::uint32_t p = 0; (p + 1) * width <= 128; ++p) {
      std::uint64_t want = 0;
      for (std::uint32_t i = 0; i < width; ++i) {
        const std::uint32_t bit = p * width + i;
        want |= ((s.bits[bit / 64] >> (bit % 64)) & 1) << i;
      }
      EXPECT_EQ(simhash_piece(s, p, width), want) << width << " " << p;
    }
  }
}

TEST(Sketch, ANearCopyKeepsMostOfItsSketch) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "w" + std::to_string(i % 97) + "x" + std::to_string(i) + " ";
  std::string changed = text;
  changed.replace(changed.find("w5x5 "), 5, "zzz ");
  const Sketch a = sketch(tokens_of(text), SketchParams{});
  const Sketch b = sketch(tokens_of(changed), SketchParams{});
  EXPECT_GE(c_similarity(a, b), 372u);
  EXPECT_GE(b_similarity(a, b), 2u);
}

TEST(Sketch, ParameterProblemsNameTheOption) {
  SketchParams p;
  EXPECT_EQ(p.problem(), "");
  p.m = 85;
  EXPECT_EQ(p.problem(), "--minvalues must be a positive multiple of --supershingles");
  p = {};
  p.b = 100;
  EXPECT_EQ(p.problem(), "--simhash-bits must be a positive multiple of 64");
  p = {};
  p.pieces = 5;
  EXPECT_EQ(p.problem(), "--simhash-pieces must divide --simhash-bits into pieces of at most 64 bits");
}

}  // namespace
}  // namespace crd::neardup
