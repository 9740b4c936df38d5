// The similarity pair and overlap distribution (Campbell, Chen & Smith 2000, §6) on the paper's examples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crd/detect/similarity.hpp"
#include "crd/hash/sha1.hpp"

namespace {

using crd::Digest;

std::vector<Digest> sentences(int from, int to) {
  crd::Sha1 sha1;
  std::vector<Digest> out;
  for (int i = from; i < to; ++i) out.push_back(sha1("sentence " + std::to_string(i) + "."));
  return out;
}

TEST(Similarity, TheSectionSixExample) {
  // d1: 120 sentences, d2: 160, 80 in common → <0.667, 0.500>.
  const auto d1 = sentences(0, 120);
  const auto d2 = sentences(40, 200);
  const auto o = crd::detect::overlap(d1, d2);
  EXPECT_EQ(o.matching.size(), 80u);
  EXPECT_DOUBLE_EQ(o.pair.first, 80.0 / 120.0);
  EXPECT_DOUBLE_EQ(o.pair.second, 0.5);
  EXPECT_EQ(o.matching.front(), 40u);
  EXPECT_EQ(o.matching_b.front(), 0u);
}

TEST(Similarity, ADocumentInsideAHundredTimesLargerOne) {
  auto small = sentences(5000, 5099);
  small.push_back(sentences(-1, 0)[0]);  // one sentence of its own
  const auto large = sentences(0, 9900);
  const auto o = crd::detect::overlap(small, large);
  EXPECT_EQ(o.pair.first, 0.99);
  EXPECT_EQ(o.pair.second, 0.01);
  EXPECT_EQ(crd::detect::overlap_distribution(o.in_a, 20), (std::vector<std::uint32_t>{20, 20, 20, 20, 19}));
  const auto in_large = crd::detect::overlap_distribution(o.in_b, 1000);
  EXPECT_EQ(in_large, (std::vector<std::uint32_t>{0, 0, 0, 0, 0, 99, 0, 0, 0, 0}));
  // The other way round, the terms swap.
  const auto r = crd::detect::overlap(large, small);
  EXPECT_EQ(r.pair.first, 0.01);
  EXPECT_EQ(r.pair.second, 0.99);
}

TEST(Similarity, IdenticalDisjointAndEmptyDocuments) {
  const auto a = sentences(0, 30);
  EXPECT_EQ(crd::detect::overlap(a, a).pair.first, 1.0);
  EXPECT_EQ(crd::detect::overlap(a, a).pair.second, 1.0);
  const auto d = crd::detect::overlap(a, sentences(30, 60));
  EXPECT_EQ(d.pair.first, 0.0);
  EXPECT_TRUE(d.matching.empty());
  const auto e = crd::detect::overlap({}, a);
  EXPECT_EQ(e.pair.first, 0.0);
  EXPECT_EQ(e.pair.second, 0.0);
}

TEST(Similarity, ARepeatedSentenceCountsAtEachPositionAndMatchesOnce) {
  const auto s = sentences(0, 3);
  const std::vector<Digest> a{s[0], s[0], s[1]};
  const std::vector<Digest> b{s[0], s[2]};
  const auto o = crd::detect::overlap(a, b);
  EXPECT_EQ(o.in_a, (std::vector<bool>{true, true, false}));
  EXPECT_EQ(o.in_b, (std::vector<bool>{true, false}));
  EXPECT_DOUBLE_EQ(o.pair.first, 2.0 / 3.0);
  EXPECT_EQ(o.pair.second, 0.5);
  EXPECT_EQ(o.matching, (std::vector<std::uint32_t>{0}));
}

TEST(Similarity, DistributionGranularity) {
  const std::vector<bool> bits{true, false, true, true, false, true, true};
  EXPECT_EQ(crd::detect::overlap_distribution(bits, 3), (std::vector<std::uint32_t>{2, 2, 1}));
  EXPECT_EQ(crd::detect::overlap_distribution(bits, 1), (std::vector<std::uint32_t>{1, 0, 1, 1, 0, 1, 1}));
  EXPECT_EQ(crd::detect::overlap_distribution(bits, 0), crd::detect::overlap_distribution(bits, 1));
  EXPECT_EQ(crd::detect::overlap_distribution(bits, 100), (std::vector<std::uint32_t>{5}));
  EXPECT_TRUE(crd::detect::overlap_distribution({}, 5).empty());
}

}  // namespace
