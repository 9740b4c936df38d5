// owner_best_scores on 1–4 thread ranks: every rank gets, for each of its distinct chunks, the best
// scores that comparing the chunk with the labels on one thread gives, whichever rank owns it and
// however many ranks share it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chunk_sketch.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/hash/sha1.hpp"
#include "owner_scores.hpp"

namespace crd::compare {
namespace {

// Chunk texts long enough for TLSH and ssdeep to sketch, with families of near-copies.
std::string text(int i) {
  std::string s = "<p>Paragraph family " + std::to_string(i % 7) + ": ";
  for (int w = 0; w < 60; ++w) s += "word" + std::to_string((w * 31 + i % 7) % 97) + " ";
  return s + "variant " + std::to_string(i);
}

class OwnerScores : public ::testing::TestWithParam<int> {};

TEST_P(OwnerScores, EqualsComparingOnOneThread) {
  std::vector<ChunkSketch> label_sketches;
  for (int i = 0; i < 40; i += 5) label_sketches.push_back(sketch(text(i)));
  std::vector<BestScores> serial;
  {
    LabelSketches labels(label_sketches);
    for (int i = 0; i < 60; ++i) serial.push_back(labels.best(sketch(text(i))));
  }
  comm::run_local(GetParam(), [&](comm::Transport& t) {
    // Rank r holds chunks r, r + 2, r + 4, … and the shared ones 0..9 (templates on every shard),
    // in an order of its own.
    std::vector<int> mine;
    for (int i = 10 + t.rank(); i < 60; i += 2) mine.push_back(i);
    for (int i = 9; i >= 0; --i) mine.push_back(i);
    std::vector<Digest> digests;
    std::vector<ChunkSketch> sketches;
    for (int i : mine) {
      digests.push_back(sha1(text(i)));
      sketches.push_back(sketch(text(i)));
    }
    std::vector<const ChunkSketch*> pointers;
    for (const auto& s : sketches) pointers.push_back(&s);
    LabelSketches labels(label_sketches);
    const auto got = owner_best_scores(t, digests, pointers, labels, {4096});
    ASSERT_EQ(got.size(), mine.size());
    for (std::size_t k = 0; k < mine.size(); ++k) {
      const BestScores& want = serial[static_cast<std::size_t>(mine[k])];
      EXPECT_EQ(got[k].nilsimsa, want.nilsimsa) << "chunk " << mine[k];
      EXPECT_EQ(got[k].tlsh, want.tlsh) << "chunk " << mine[k];
      EXPECT_EQ(got[k].ssdeep, want.ssdeep) << "chunk " << mine[k];
    }
  });
}

TEST_P(OwnerScores, NoChunksAnywhere) {
  comm::run_local(GetParam(), [](comm::Transport& t) {
    LabelSketches labels({sketch(text(1))});
    EXPECT_TRUE(owner_best_scores(t, {}, {}, labels, {4096}).empty());
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, OwnerScores, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::compare
