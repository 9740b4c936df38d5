// DocumentHasher: a document's and its chunks' digests, hashed side by side in two lanes (where
// the CPU has SHA-NI) or by OpenSSL, equal the plain SHA-1 of each, for every length around the
// block and padding boundaries and for any order of lengths, for documents of 0 to 10^6 bytes cut
// at random points, and for real pages cut by crd's scan chunker.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "crd/hash/document_hasher.hpp"
#include "crd/hash/sha1.hpp"
#include "support/test_paths.hpp"

namespace {

std::string random_bytes(std::mt19937& rng, std::size_t n) {
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

class DocumentHasherTest : public ::testing::TestWithParam<bool> {};

TEST_P(DocumentHasherTest, DigestsArePlainSha1) {
  crd::DocumentHasher h(GetParam());
  if (GetParam() && !h.two_lanes()) GTEST_SKIP() << "this CPU has no SHA-NI: only the OpenSSL path runs";
  std::mt19937 rng(42);
  // Lengths that end just before, at and after a block, and where the padding needs a second block.
  const std::vector<std::size_t> edges = {0, 1, 54, 55, 56, 57, 63, 64, 65, 118, 119, 120, 127, 128, 129, 1000};
  for (std::size_t doc_len : edges) {
    for (std::size_t chunk_len : edges) {
      const std::string doc = random_bytes(rng, doc_len);
      const std::string c1 = random_bytes(rng, chunk_len);
      const std::string c2 = random_bytes(rng, (chunk_len * 7) % 200);
      h.start(doc);
      EXPECT_EQ(h.chunk(c1), crd::sha1(c1)) << doc_len << " " << chunk_len;
      EXPECT_EQ(h.chunk(c2), crd::sha1(c2)) << doc_len << " " << chunk_len;
      EXPECT_EQ(h.finish(), crd::sha1(doc)) << doc_len << " " << chunk_len;
    }
  }
}

TEST_P(DocumentHasherTest, ChunksOfTheDocumentItselfAndManyDocuments) {
  crd::DocumentHasher h(GetParam());
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const std::string doc = random_bytes(rng, rng() % 20000);
    h.start(doc);
    // Chunks cut from the document (as the chunkers do), then a few from elsewhere.
    std::size_t at = 0;
    while (at < doc.size()) {
      const std::size_t len = std::min<std::size_t>(doc.size() - at, rng() % 700);
      const std::string_view piece = std::string_view(doc).substr(at, len);
      ASSERT_EQ(h.chunk(piece), crd::sha1(piece)) << round << " at " << at;
      at += len + 1;
    }
    const std::string other = random_bytes(rng, rng() % 3000);
    ASSERT_EQ(h.chunk(other), crd::sha1(other)) << round;
    ASSERT_EQ(h.finish(), crd::sha1(doc)) << round;
  }
  // A document with no chunks at all, and the known vectors.
  h.start("abc");
  EXPECT_EQ(crd::to_hex(h.finish()), "a9993e364706816aba3e25717850c26c9cd0d89d");
  h.start("");
  EXPECT_EQ(crd::to_hex(h.chunk("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(crd::to_hex(h.finish()), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  const std::string million(1000000, 'a');
  h.start(million);
  EXPECT_EQ(crd::to_hex(h.chunk(million)), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  EXPECT_EQ(crd::to_hex(h.finish()), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

// Lengths spread evenly on a log scale over 0..10^6 (and both ends), each document cut at random
// points into pieces that cover it, so the document's lane runs beside chunks of every length and
// alone after them; every digest is OpenSSL's.
TEST_P(DocumentHasherTest, RandomLengthsUpToAMillionCutAtRandomPoints) {
  crd::DocumentHasher h(GetParam());
  std::mt19937 rng(11);
  std::vector<std::size_t> lengths = {0, 1000000};
  for (int i = 0; i < 120; ++i)
    lengths.push_back(static_cast<std::size_t>(std::exp(std::uniform_real_distribution<>(0, std::log(1e6))(rng))));
  for (std::size_t len : lengths) {
    const std::string doc = random_bytes(rng, len);
    h.start(doc);
    std::vector<std::size_t> cuts = {0, len};
    for (std::size_t n = rng() % 40; n > 0 && len > 0; --n) cuts.push_back(rng() % len);
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
      const std::string_view piece = std::string_view(doc).substr(cuts[i], cuts[i + 1] - cuts[i]);
      ASSERT_EQ(h.chunk(piece), crd::sha1(piece)) << "document of " << len << ", piece at " << cuts[i];
    }
    ASSERT_EQ(h.finish(), crd::sha1(doc)) << "document of " << len;
  }
}

// Real pages (the documentation corpus, when fetched) and the chunks crd's scan chunker cuts them into.
TEST_P(DocumentHasherTest, RealPagesAndTheirChunks) {
  const auto dir = crd::testing::corpus_dir();
  if (!dir) GTEST_SKIP() << "documentation corpus absent (scripts/fetch_corpus.sh)";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(*dir)) {
    if (e.is_regular_file() && e.path().extension() == ".html") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.size() > 400) files.resize(400);
  ASSERT_FALSE(files.empty());
  crd::DocumentHasher h(GetParam());
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, {});
  std::size_t chunks = 0;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string page{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    h.start(page);
    chunker->chunk(page, "utf-8", [&](std::string_view c) {
      ASSERT_EQ(h.chunk(c), crd::sha1(c)) << f;
      ++chunks;
    });
    ASSERT_EQ(h.finish(), crd::sha1(page)) << f;
  }
  EXPECT_GT(chunks, files.size());
}

INSTANTIATE_TEST_SUITE_P(Lanes, DocumentHasherTest, ::testing::Values(true, false),
                         [](const auto& p) { return p.param ? std::string("TwoLanes") : std::string("OpenSsl"); });

}  // namespace
