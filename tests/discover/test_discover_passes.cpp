// Out-of-core counting (docs/memory.md): count_pass over P slices of the hash space, then
// finish_passes, equals discover_labels in memory — rows by hash, totals, top cut, label ids and
// histogram, and with keep_counts every owned hash's count row in hash order — for 1..4 thread
// ranks and several P, with stop items and a top-N cut.
#include <gtest/gtest.h>

#include "crd/comm/local_transport.hpp"
#include "crd/scan/corpus_scan.hpp"
#include "discover_fixture.hpp"

namespace crd::discover {
namespace {

using testing::Corpus;

// One rank's tally of the items whose hash lies in `pass` (the same pages and keys every pass).
testing::RankInput pass_input(const Corpus& c, int rank, std::size_t sample_bytes, scan::HashPass pass) {
  testing::RankInput in{{}, LocalTally(sample_bytes)};
  for (const testing::Page& p : c.pages) {
    if (p.rank != rank) continue;
    const auto page = static_cast<std::uint32_t>(in.keys.size());
    in.keys.push_back(p.key);
    for (std::size_t i : p.items) {
      const testing::Item& item = c.items[i];
      if (pass.contains(item.hash)) in.tally.add(item.hash, item.text.size(), item.text, page, in.keys);
    }
  }
  return in;
}

struct Both {
  TallyDiscovery memory;
  TallyDiscovery passes;
};

std::vector<Both> run(const Corpus& corpus, int nranks, const LabelRules& rules, std::uint32_t passes) {
  constexpr std::size_t kSample = 16;
  std::vector<Both> out(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    Both& mine = out[static_cast<std::size_t>(t.rank())];
    ShuffleTotals totals;
    testing::RankInput all = testing::rank_input(corpus, t.rank(), kSample);
    mine.memory = discover_labels(t, all.tally, all.keys, rules, 256, totals, true);
    PassCandidates candidates;
    for (std::uint32_t k = 0; k < passes; ++k) {
      testing::RankInput slice = pass_input(corpus, t.rank(), kSample, {k, passes});
      count_pass(t, slice.tally, slice.keys, rules, 256, totals, candidates, true);
    }
    mine.passes = finish_passes(t, std::move(candidates), rules, 256);
  });
  return out;
}

TEST(HashPass, EveryHashLiesInExactlyOnePass) {
  for (std::uint32_t passes : {1u, 2u, 3u, 7u, 1024u}) {
    std::vector<std::size_t> per_pass(passes);
    for (int i = 0; i < 4000; ++i) {
      const Digest d = sha1("item " + std::to_string(i));
      int in = 0;
      for (std::uint32_t k = 0; k < passes; ++k) {
        if (scan::HashPass{k, passes}.contains(d)) {
          ++in;
          ++per_pass[k];
        }
      }
      ASSERT_EQ(in, 1) << "passes " << passes;
    }
    // Slices of the last four bytes: uniform, so each pass gets its share (loosely, for 4000 keys).
    if (passes <= 7) {
      for (std::size_t n : per_pass) EXPECT_NEAR(static_cast<double>(n), 4000.0 / passes, 4000.0 / passes * 0.2);
    }
  }
}

class DiscoverPasses : public ::testing::TestWithParam<int> {};

TEST_P(DiscoverPasses, EqualInMemory) {
  const int nranks = GetParam();
  const Corpus corpus = testing::make_corpus(11, nranks, 500, 400);
  const StopList stop = StopList::from_digests({corpus.items[0].hash, corpus.items[5].hash});
  for (const std::uint64_t top : {std::uint64_t{0}, std::uint64_t{9}}) {
    const LabelRules rules{1, 4, &stop, top};
    for (const std::uint32_t passes : {1u, 2u, 3u, 8u}) {
      SCOPED_TRACE("top " + std::to_string(top) + ", passes " + std::to_string(passes));
      const auto results = run(corpus, nranks, rules, passes);
      std::uint64_t labeled = 0;
      for (const Both& r : results) {
        const LabeledTable& a = r.memory.table;
        const LabeledTable& b = r.passes.table;
        ASSERT_EQ(a.rows.size(), b.rows.size());
        for (std::size_t i = 0; i < a.rows.size(); ++i) EXPECT_TRUE(testing::same_row(a.rows[i], b.rows[i])) << i;
        EXPECT_EQ(r.memory.first_label_id, r.passes.first_label_id);
        EXPECT_EQ(std::tie(a.threshold, a.total, a.distinct, a.labeled, a.stop_removed, a.top, a.top_removed),
                  std::tie(b.threshold, b.total, b.distinct, b.labeled, b.stop_removed, b.top, b.top_removed));
        ASSERT_EQ(r.memory.histogram.size(), r.passes.histogram.size());
        for (std::size_t i = 0; i < r.memory.histogram.size(); ++i) {
          EXPECT_EQ(r.memory.histogram[i].occurrences, r.passes.histogram[i].occurrences);
          EXPECT_EQ(r.memory.histogram[i].distinct, r.passes.histogram[i].distinct);
        }
        EXPECT_TRUE(r.passes.labeled_local.empty());
        // --keep-counts: this rank's slice of every owned hash, by hash (the writer concatenates ranks).
        ASSERT_EQ(r.memory.counts.size(), r.passes.counts.size());
        EXPECT_FALSE(r.memory.counts.empty() && nranks == 1);
        for (std::size_t i = 0; i < r.memory.counts.size(); ++i) {
          const CountRow& m = r.memory.counts[i];
          const CountRow& q = r.passes.counts[i];
          EXPECT_EQ(std::tie(m.hash, m.count, m.length), std::tie(q.hash, q.count, q.length)) << i;
        }
        labeled = a.labeled;
      }
      if (top == 0) {
        EXPECT_GT(labeled, 9u) << "fixture: more candidates than the top cut keeps";
      } else {
        EXPECT_EQ(labeled, top);
        EXPECT_GT(results[0].memory.table.top_removed, 0u);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, DiscoverPasses, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::discover
