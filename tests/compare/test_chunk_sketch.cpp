// LabelSketches::best against comparing every chunk with every label, on real chunks of the
// Debian documentation corpus: the ssdeep candidate index must never miss a scoring pair.
#include <gtest/gtest.h>
#include <tlsh.h>

#include <algorithm>
#include <random>

#include "chunk_sketch.hpp"
#include "corpus_chunks.hpp"

namespace crd::compare {
namespace {

TEST(LabelSketches, BestEqualsComparingWithEveryLabel) {
  auto chunks = corpus_chunks("sphinx-doc", 40);
  if (chunks.empty()) GTEST_SKIP() << "documentation corpus absent (scripts/fetch_corpus.sh)";
  // Labels: every other chunk, some of them lightly modified; queries: all chunks.
  std::vector<ChunkSketch> labels;
  for (std::size_t i = 0; i < chunks.size(); i += 2) {
    std::string text = chunks[i];
    if (i % 6 == 0 && text.size() > 10) text[text.size() / 2] ^= 1;
    labels.push_back(sketch(text));
  }
  LabelSketches index(labels);
  std::size_t ssdeep_hits = 0, tlsh_digests = 0;
  for (const auto& c : chunks) {
    const ChunkSketch s = sketch(c);
    BestScores brute;
    for (const auto& l : labels) {
      brute.nilsimsa = std::max(brute.nilsimsa, nilsimsa_compare(s.nilsimsa, l.nilsimsa));
      if (!s.tlsh.empty() && !l.tlsh.empty())
        brute.tlsh = std::min(brute.tlsh, TlshDigest::parse(s.tlsh)->distance(*TlshDigest::parse(l.tlsh)));
      brute.ssdeep = std::max(brute.ssdeep, ssdeep_compare(s.ssdeep, l.ssdeep));
    }
    const BestScores got = index.best(s);
    ASSERT_EQ(got.nilsimsa, brute.nilsimsa) << c.substr(0, 80);
    ASSERT_EQ(got.tlsh, brute.tlsh) << c.substr(0, 80);
    ASSERT_EQ(got.ssdeep, brute.ssdeep) << c.substr(0, 80);
    ssdeep_hits += got.ssdeep > 0;
    tlsh_digests += !s.tlsh.empty();
  }
  // The check means something only if both kinds of match occur.
  EXPECT_GT(ssdeep_hits, chunks.size() / 4);
  EXPECT_GT(tlsh_digests, 10u);
}

TEST(FuzzyHashes, TlshNeedsLongInputAndSeesSmallEdits) {
  EXPECT_EQ(sketch("a short chunk of text").tlsh, "");
  std::string a;
  for (int i = 0; i < 60; ++i) a += "paragraph " + std::to_string(i * 7919 % 1000) + " of some documentation ";
  std::string b = a;
  b[200] = '#';
  const auto ta = TlshDigest::of(a), tb = TlshDigest::of(b);
  ASSERT_TRUE(ta && tb);
  EXPECT_EQ(ta->distance(*ta), 0);
  EXPECT_GT(ta->distance(*tb), 0);
  EXPECT_EQ(ssdeep_compare(ssdeep_digest(a), ssdeep_digest(a)), 100);
}

// TlshDigest::of declines inputs under libtlsh's MIN_DATA_LENGTH without hashing them: libtlsh
// itself gives no digest for any of them either, and from that length on both agree, on varied
// bytes of every length around the limit.
TEST(FuzzyHashes, TlshShortcutAgreesWithLibtlsh) {
  std::mt19937 rng(256);
  for (std::size_t len = 0; len <= MIN_DATA_LENGTH + 64; ++len) {
    for (int trial = 0; trial < 3; ++trial) {
      std::string data(len, '\0');
      for (auto& ch : data) ch = static_cast<char>(rng() & 255);
      Tlsh direct;
      direct.final(reinterpret_cast<const unsigned char*>(data.data()), static_cast<unsigned>(len));
      const char* h = direct.getHash();
      const std::string want = h == nullptr ? "" : h;
      const auto got = TlshDigest::of(data);
      ASSERT_EQ(got ? got->hex() : "", want) << len;
      if (len >= MIN_DATA_LENGTH) ASSERT_NE(want, "") << len;  // the boundary is where libtlsh has it
    }
  }
}

}  // namespace
}  // namespace crd::compare
