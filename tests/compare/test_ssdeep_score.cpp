// SsdeepQuery::score against libfuzzy's fuzzy_compare: on every pair of real chunks' signatures
// (many share 7-grams and differ by a few characters), on random signatures over a small alphabet
// (so runs, shared 7-grams and near misses are common) at equal, doubled, halved and far block
// sizes, small blocks (the cap) and pieces of 0–64 characters; and what parse declines.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "corpus_chunks.hpp"
#include "fuzzy_hashes.hpp"
#include "ssdeep_score.hpp"

namespace crd::compare {
namespace {

// Returns how many pairs scored above 0, so each test can show its pairs test something.
int expect_same_scores(const std::vector<std::string>& signatures) {
  int positive = 0;
  for (const auto& a : signatures) {
    const auto pa = SsdeepSignature::parse(a);
    EXPECT_TRUE(pa) << a;
    if (!pa) continue;
    const SsdeepQuery query(*pa);
    for (const auto& b : signatures) {
      const auto pb = SsdeepSignature::parse(b);
      EXPECT_TRUE(pb) << b;
      if (!pb) continue;
      const int want = ssdeep_compare(a, b);
      EXPECT_EQ(query.score(*pb), want) << a << " vs " << b;
      positive += want > 0;
    }
  }
  return positive;
}

TEST(SsdeepScore, EqualsFuzzyCompareOnRealChunks) {
  const auto chunks = corpus_chunks("sphinx-doc", 30);
  if (chunks.empty()) GTEST_SKIP() << "documentation corpus absent (scripts/fetch_corpus.sh)";
  std::vector<std::string> signatures;
  std::mt19937 rng(7);
  for (std::size_t i = 0; i < chunks.size() && signatures.size() < 500; i += 3) {
    signatures.push_back(ssdeep_digest(chunks[i]));
    std::string edited = chunks[i];  // a near copy: a few bytes changed
    for (int k = 0; k < 3 && !edited.empty(); ++k) edited[rng() % edited.size()] ^= 0x20;
    signatures.push_back(ssdeep_digest(edited));
  }
  EXPECT_GT(expect_same_scores(signatures), 500);
}

std::string random_piece(std::mt19937& rng, std::size_t length, const std::string& alphabet, const std::string& base) {
  std::string s;
  for (std::size_t i = 0; i < length; ++i)
    s += !base.empty() && rng() % 4 != 0 ? base[i % base.size()] : alphabet[rng() % alphabet.size()];
  return s;
}

TEST(SsdeepScore, EqualsFuzzyCompareOnRandomSignatures) {
  std::mt19937 rng(31);
  const std::string alphabet = "ABCab+";  // small: runs of 4+ (cut to 3) and shared 7-grams are common
  const std::string base = random_piece(rng, 64, alphabet, "");
  const unsigned long blocks[] = {3, 6, 12, 24, 48, 96, 1536};
  std::vector<std::string> signatures;
  for (int i = 0; i < 400; ++i) {
    const unsigned long bs = blocks[rng() % std::size(blocks)];
    const std::size_t n1 = rng() % 65, n2 = rng() % 65;  // raw lengths; the cut shortens them
    signatures.push_back(std::to_string(bs) + ":" + random_piece(rng, n1, alphabet, base) + ":" +
                         random_piece(rng, n2, alphabet, base));
  }
  signatures.push_back("3:AAAAAAAAAAbcabcab:AAAAAAAAAAAAAAA");  // runs only
  signatures.push_back("3::");                                  // empty pieces
  EXPECT_GT(expect_same_scores(signatures), 2000);
}

TEST(SsdeepScore, ParseDeclinesWhatFuzzyCompareReadsDifferently) {
  EXPECT_FALSE(SsdeepSignature::parse("3:abc"));                        // one piece
  EXPECT_FALSE(SsdeepSignature::parse(":abc:def"));                     // no block size
  EXPECT_FALSE(SsdeepSignature::parse(" 3:abc:def"));                   // sscanf would skip the space
  EXPECT_FALSE(SsdeepSignature::parse("3x:abc:def"));                   // not all digits
  EXPECT_FALSE(SsdeepSignature::parse("99999999999999999999999:a:b"));  // over ULONG_MAX / 2
  std::string long_piece;
  for (int i = 0; i < 65; ++i) long_piece += static_cast<char>('A' + i % 26);
  EXPECT_FALSE(SsdeepSignature::parse("3:" + long_piece + ":a"));
  EXPECT_EQ(ssdeep_compare("3:" + long_piece + ":a", "3:" + long_piece + ":a"), -1);  // libfuzzy agrees
  // A 67-character piece whose run of six Zs is cut to 3 (64 left) is read; h2 ends at a comma.
  const std::string cut_piece = long_piece.substr(0, 61) + "ZZZZZZ";
  const auto cut = SsdeepSignature::parse("3:" + cut_piece + ":abcdefgh,\"file\"");
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->view(0), long_piece.substr(0, 61) + "ZZZ");
  EXPECT_EQ(cut->view(1), "abcdefgh");
}

}  // namespace
}  // namespace crd::compare
