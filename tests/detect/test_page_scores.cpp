// score_pages: stop chunks removed before counting and positions; empty pages omitted, and those
// emptied by stop chunks counted. The page
// rule detect and crd check share: strictly above the threshold, at least min_labeled.
#include <gtest/gtest.h>

#include <vector>

#include "crd/base/chunk_ids.hpp"
#include "crd/detect/page_scores.hpp"

namespace crd::detect {
namespace {

constexpr std::uint64_t N = kNoLabel;

TEST(ScorePages, HandComputed) {
  // Chunk ids 0..5. Labels: 1 → 10, 3 → 11, 5 → 12 (a stop chunk that is also labeled).
  // Stop chunks: 2 and 5.
  const std::vector<std::uint64_t> label_of{N, 10, N, 11, N, 12};
  const std::vector<std::uint8_t> is_stop{0, 0, 1, 0, 0, 1};
  // Page 0: 0 2 1 2 3   → after stop removal 0 1 3: chunks 3, labeled at positions 1, 2.
  // Page 1: 2 5 2       → nothing left: omitted.
  // Page 2: (empty)     → omitted.
  // Page 3: 4 5 4       → 4 4: chunks 2, none labeled.
  // Page 4: 3 3 1 0     → chunks 4, labeled at 0, 1, 2.
  const std::vector<std::uint32_t> chunk_ids{0, 2, 1, 2, 3, 2, 5, 2, 4, 5, 4, 3, 3, 1, 0};
  const std::vector<std::uint64_t> offsets{0, 5, 8, 8, 11, 15};
  const PageScores s = score_pages(offsets, chunk_ids, label_of, is_stop);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.page, (std::vector<std::uint32_t>{0, 3, 4}));
  EXPECT_EQ(s.chunks, (std::vector<std::uint32_t>{3, 2, 4}));
  EXPECT_EQ(s.labeled, (std::vector<std::uint32_t>{2, 0, 3}));
  EXPECT_EQ(s.containment, (std::vector<double>{2.0 / 3.0, 0.0, 0.75}));
  EXPECT_EQ(s.match_offsets, (std::vector<std::uint64_t>{0, 2, 2, 5}));
  EXPECT_EQ(s.positions, (std::vector<std::uint32_t>{1, 2, 0, 1, 2}));
  EXPECT_EQ(s.label_ids, (std::vector<std::uint32_t>{10, 11, 11, 11, 10}));
  // Page 1 had chunks, all of them stop chunks: counted; page 2 had none (its chunker's skip
  // reason counts it): not.
  EXPECT_EQ(s.only_stop_pages, 1u);
}

// Out-of-core counting: the example above in two passes — pass A tallies chunks 0..2, pass B 3..5;
// each marks the other's chunks (a stop chunk or not) — adds up to the in-memory scores.
TEST(ScorePages, PassesAddUpToTheWhole) {
  const std::vector<std::uint64_t> label_of{N, 10, N, 11, N, 12};
  const std::vector<std::uint8_t> is_stop{0, 0, 1, 0, 0, 1};
  const std::vector<std::uint32_t> chunk_ids{0, 2, 1, 2, 3, 2, 5, 2, 4, 5, 4, 3, 3, 1, 0};
  const std::vector<std::uint64_t> offsets{0, 5, 8, 8, 11, 15};
  const auto in_pass = [&](bool a) {
    std::vector<std::uint32_t> ids;
    for (const std::uint32_t id : chunk_ids) {
      if ((id <= 2) == a)
        ids.push_back(id);
      else
        ids.push_back(is_stop[id] != 0 ? kOtherPassStopChunk : kOtherPassChunk);
    }
    return ids;
  };
  const PageScores whole = score_pages(offsets, chunk_ids, label_of, is_stop);
  for (const bool a_first : {true, false}) {
    PageScores sum = score_pages(offsets, in_pass(a_first), label_of, is_stop);
    add_pass_scores(sum, score_pages(offsets, in_pass(!a_first), label_of, is_stop));
    EXPECT_EQ(sum.page, whole.page);
    EXPECT_EQ(sum.chunks, whole.chunks);
    EXPECT_EQ(sum.labeled, whole.labeled);
    EXPECT_EQ(sum.containment, whole.containment);
    EXPECT_EQ(sum.only_stop_pages, whole.only_stop_pages);
    EXPECT_EQ(sum.match_offsets, whole.match_offsets);
    EXPECT_EQ(sum.positions, whole.positions);
    EXPECT_EQ(sum.label_ids, whole.label_ids);
  }
}

TEST(ScorePages, NoPages) {
  const std::vector<std::uint64_t> offsets{0};
  const PageScores s = score_pages(offsets, {}, {}, {});
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(s.match_offsets, (std::vector<std::uint64_t>{0}));
}

TEST(ScorePages, AllLabeledAndNoStops) {
  const std::vector<std::uint64_t> label_of{0, 1};
  const std::vector<std::uint8_t> is_stop{0, 0};
  const std::vector<std::uint32_t> chunk_ids{1, 0, 1};
  const std::vector<std::uint64_t> offsets{0, 3};
  const PageScores s = score_pages(offsets, chunk_ids, label_of, is_stop);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.containment[0], 1.0);
  EXPECT_EQ(s.positions, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(s.label_ids, (std::vector<std::uint32_t>{1, 0, 1}));
}

TEST(PageScores, ContainmentIsLabeledOverChunks) {
  EXPECT_EQ(containment(1, 2), 0.5);
  EXPECT_EQ(containment(0, 0), 0.0);
}

}  // namespace
}  // namespace crd::detect
