// The occurrence histogram: OccurrenceTally (an array for small counts, a map for the rest) and
// build_histogram across ranks, against a plain map of every count.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

#include "crd/comm/local_transport.hpp"
#include "crd/discover/histogram.hpp"

namespace crd::discover {
namespace {

// Counts on both sides of the array's end (256), some far beyond it, each seen a different number of times.
std::vector<std::uint64_t> sample_counts() {
  std::vector<std::uint64_t> counts;
  for (const std::uint64_t c : {0ull, 1ull, 2ull, 3ull, 254ull, 255ull, 256ull, 257ull, 1000ull, 1ull << 40})
    for (std::uint64_t k = 0; k <= c % 7 + (c < 4 ? 20 : 0); ++k) counts.push_back(c);
  return counts;
}

std::map<std::uint64_t, std::uint64_t> reference(const std::vector<std::uint64_t>& counts) {
  std::map<std::uint64_t, std::uint64_t> ref;
  for (const std::uint64_t c : counts) ++ref[c];
  return ref;
}

TEST(OccurrenceTally, EqualsAMapOfEveryCountOnBothSidesOfTheArray) {
  const std::vector<std::uint64_t> counts = sample_counts();
  OccurrenceTally tally;
  for (const std::uint64_t c : counts) tally.add(c);
  const auto ref = reference(counts);
  EXPECT_EQ(tally.take(), ref);
  EXPECT_TRUE(tally.take().empty());  // taken: nothing is counted twice
  tally.add(256);
  tally.add(255);
  EXPECT_EQ(tally.take(), (std::map<std::uint64_t, std::uint64_t>{{255, 1}, {256, 1}}));
}

class BuildHistogram : public ::testing::TestWithParam<int> {};

// Each rank holds every nranks-th count; the ranks' slices, concatenated, are the whole histogram.
TEST_P(BuildHistogram, SlicesConcatenateToTheReference) {
  const int nranks = GetParam();
  const std::vector<std::uint64_t> counts = sample_counts();
  std::vector<std::vector<HistogramRow>> slices(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    std::vector<std::uint64_t> mine;
    for (std::size_t i = static_cast<std::size_t>(t.rank()); i < counts.size(); i += static_cast<std::size_t>(nranks))
      mine.push_back(counts[i]);
    slices[static_cast<std::size_t>(t.rank())] = build_histogram(t, mine, 64);
  });
  std::map<std::uint64_t, std::uint64_t> got;
  std::uint64_t previous = 0;
  bool first = true;
  for (const auto& slice : slices) {
    for (const HistogramRow& row : slice) {
      EXPECT_TRUE(first || row.occurrences > previous) << "rows ascend across ranks";
      first = false;
      previous = row.occurrences;
      got[row.occurrences] = row.distinct;
    }
  }
  EXPECT_EQ(got, reference(counts));
}

INSTANTIATE_TEST_SUITE_P(Ranks, BuildHistogram, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::discover
