// join_labels: a rank's chunks joined with the labeled set, replicated and partitioned, agree with
// a direct lookup of each chunk's hash in the sorted global label list.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "crd/comm/local_transport.hpp"
#include "crd/hash/sha1.hpp"
#include "labels/label_set.hpp"

namespace crd::pipeline {
namespace {

// The labeled set as load_label_set would build it: owned slices by owner_of, ids in hash order.
LabelSet make_label_set(const std::vector<Digest>& sorted_labels, int rank, int nranks, bool replicated) {
  LabelSet set;
  set.total = sorted_labels.size();
  set.replicated = replicated;
  std::uint64_t first = 0;
  for (const Digest& d : sorted_labels) {
    const int owner = owner_of(d, nranks);
    if (owner < rank) ++first;
    if (owner == rank) {
      set.owned.hashes.push_back(d);
      set.owned.lengths.push_back(1);
      set.owned.samples.emplace_back();
    }
  }
  set.owned.first_id = first;
  if (replicated)
    for (std::size_t i = 0; i < sorted_labels.size(); ++i) {
      bool inserted = false;
      set.all.find_or_insert(sorted_labels[i], inserted) = i;
    }
  return set;
}

class JoinLabels : public ::testing::TestWithParam<int> {};

TEST_P(JoinLabels, ReplicatedAndPartitionedAgreeWithDirectLookup) {
  const int nranks = GetParam();
  std::vector<Digest> pool;
  for (int i = 0; i < 600; ++i) pool.push_back(sha1("chunk " + std::to_string(i)));
  std::vector<Digest> labels;
  for (std::size_t i = 0; i < pool.size(); i += 3) labels.push_back(pool[i]);
  labels.push_back(sha1("a label no rank holds"));
  std::sort(labels.begin(), labels.end());

  for (bool replicated : {true, false}) {
    for (std::size_t round_bytes : {std::size_t{48}, std::size_t{1} << 20}) {
      SCOPED_TRACE(std::string(replicated ? "replicated" : "partitioned") + " round_bytes " +
                   std::to_string(round_bytes));
      comm::run_local(nranks, [&](comm::Transport& t) {
        const LabelSet set = make_label_set(labels, t.rank(), nranks, replicated);
        // Each rank holds an overlapping random subset of the pool, in its own order; the last
        // rank holds nothing when there are several.
        std::mt19937_64 rng(static_cast<std::uint64_t>(t.rank()) + 1);
        discover::PageKeys keys{"h/p"};
        discover::LocalTally chunks(0);
        if (t.size() == 1 || t.rank() + 1 < t.size())
          for (int k = 0; k < 400; ++k) chunks.add(pool[rng() % pool.size()], 1, {}, 0, keys);
        discover::ShuffleTotals totals;
        const auto label_of = join_labels(t, set, chunks, round_bytes, totals);
        ASSERT_EQ(label_of.size(), chunks.distinct());
        for (std::uint32_t id = 0; id < chunks.distinct(); ++id) {
          const auto it = std::lower_bound(labels.begin(), labels.end(), chunks.digest(id));
          const bool labeled = it != labels.end() && *it == chunks.digest(id);
          const std::uint64_t expected = labeled ? static_cast<std::uint64_t>(it - labels.begin()) : detect::kNoLabel;
          EXPECT_EQ(label_of[id], expected) << "rank " << t.rank() << " local id " << id;
        }
        if (replicated) {
          EXPECT_EQ(totals.rounds, 0u) << "replicated join needs no exchange";
        }
      });
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, JoinLabels, ::testing::Values(1, 2, 3, 4, 5));

TEST(JoinMode, Parse) {
  EXPECT_EQ(parse_enum<JoinMode>("auto"), JoinMode::Auto);
  EXPECT_EQ(parse_enum<JoinMode>("replicated"), JoinMode::Replicated);
  EXPECT_EQ(parse_enum<JoinMode>("partitioned"), JoinMode::Partitioned);
  EXPECT_FALSE(parse_enum<JoinMode>("Replicated").has_value());
}

}  // namespace
}  // namespace crd::pipeline
