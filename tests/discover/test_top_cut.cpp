// top_cut on 1..4 thread ranks: the kept candidates are exactly the N largest by (count
// descending, hash ascending) of a sorted reference, whatever the rank count and the split.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "crd/comm/local_transport.hpp"
#include "top_cut.hpp"

namespace crd::discover {
namespace {

// Candidates in global hash order (index = hash rank), split into contiguous ranges per rank as
// owner ranks hold them. Returns the kept global indexes.
std::vector<std::size_t> run_cut(const std::vector<std::uint64_t>& counts, std::uint64_t top, int nranks,
                                 std::mt19937_64& rng) {
  std::vector<std::size_t> bounds{0};
  for (int r = 1; r < nranks; ++r) bounds.push_back(counts.empty() ? 0 : rng() % (counts.size() + 1));
  bounds.push_back(counts.size());
  std::sort(bounds.begin(), bounds.end());
  std::vector<std::vector<std::uint8_t>> kept(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    const auto r = static_cast<std::size_t>(t.rank());
    const std::vector<std::uint64_t> mine(counts.begin() + static_cast<std::ptrdiff_t>(bounds[r]),
                                          counts.begin() + static_cast<std::ptrdiff_t>(bounds[r + 1]));
    kept[r] = top_cut(t, mine, top);
    EXPECT_EQ(kept[r].size(), mine.size());
  });
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < kept.size(); ++r)
    for (std::size_t i = 0; i < kept[r].size(); ++i)
      if (kept[r][i] != 0) out.push_back(bounds[r] + i);
  return out;
}

std::vector<std::size_t> reference(const std::vector<std::uint64_t>& counts, std::uint64_t top) {
  std::vector<std::size_t> idx(counts.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return counts[a] > counts[b]; });
  if (top != 0 && idx.size() > top) idx.resize(top);
  std::sort(idx.begin(), idx.end());
  return idx;
}

TEST(TopCut, HandExampleTiesGoToSmallerHashes) {
  // Hash order: counts 3 9 5 5 1 5. Top 3: the 9, then two of the three 5s with the smallest
  // hashes (indexes 2 and 3), not index 5.
  const std::vector<std::uint64_t> counts{3, 9, 5, 5, 1, 5};
  std::mt19937_64 rng(3);
  for (int nranks = 1; nranks <= 4; ++nranks)
    for (int trial = 0; trial < 10; ++trial)
      EXPECT_EQ(run_cut(counts, 3, nranks, rng), (std::vector<std::size_t>{1, 2, 3})) << nranks;
}

TEST(TopCut, ZeroOrMoreThanAllKeepsAll) {
  std::mt19937_64 rng(4);
  const std::vector<std::uint64_t> counts{2, 7, 7};
  for (int nranks = 1; nranks <= 4; ++nranks) {
    EXPECT_EQ(run_cut(counts, 0, nranks, rng), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(run_cut(counts, 3, nranks, rng), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(run_cut(counts, 100, nranks, rng), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_TRUE(run_cut({}, 5, nranks, rng).empty());
  }
}

TEST(TopCut, RandomCountsMatchASortForAnyRankCount) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<std::uint64_t> counts(rng() % 300);
    const std::uint64_t span = 1 + rng() % (trial % 2 == 0 ? 5 : 1000000);  // many ties, or few
    for (auto& c : counts) c = 2 + rng() % span;
    if (trial == 7 && !counts.empty()) counts[0] = UINT64_MAX;  // the largest count there is
    const std::uint64_t top = rng() % (counts.size() + 2);
    const auto want = reference(counts, top);
    for (int nranks = 1; nranks <= 4; ++nranks)
      EXPECT_EQ(run_cut(counts, top, nranks, rng), want) << "trial " << trial << " ranks " << nranks;
  }
}

}  // namespace
}  // namespace crd::discover
