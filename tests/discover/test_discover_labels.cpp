// discover_labels over 1..5 thread ranks equals a single-threaded computation over the same corpus:
// labeled rows (by hash and by count), totals, histogram, label ids on every reporting rank.
#include <gtest/gtest.h>

#include <mutex>

#include "crd/comm/local_transport.hpp"
#include "discover_fixture.hpp"

namespace crd::discover {
namespace {

using testing::Corpus;
using testing::Reference;

struct RankResult {
  TallyDiscovery discovery;
  std::vector<LabelRow> by_count;
  ShuffleTotals totals;
  std::vector<Digest> local_digests;  // the rank's LocalTally ids → digests
  std::vector<std::uint32_t> local_ids;
};

std::vector<RankResult> run(const Corpus& corpus, int nranks, const LabelRules& rules, std::size_t sample_bytes,
                            std::size_t round_bytes) {
  std::vector<RankResult> results(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    testing::RankInput in = testing::rank_input(corpus, t.rank(), sample_bytes);
    RankResult& out = results[static_cast<std::size_t>(t.rank())];
    out.discovery = discover_labels(t, in.tally, in.keys, rules, round_bytes, out.totals);
    out.by_count = sort_by_count(t, out.discovery.table.rows, round_bytes);
    for (std::uint32_t id = 0; id < in.tally.distinct(); ++id) out.local_digests.push_back(in.tally.digest(id));
  });
  return results;
}

// Every global and per-rank property discover_labels promises, against the reference.
void check(const Corpus& corpus, const std::vector<RankResult>& results, const Reference& ref) {
  std::vector<LabelRow> by_hash, by_count;
  std::vector<HistogramRow> histogram;
  std::uint64_t expected_first = 0;
  for (std::size_t r = 0; r < results.size(); ++r) {
    const auto& d = results[r].discovery;
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(d.first_label_id, expected_first);
    expected_first += d.table.rows.size();
    for (const auto& row : d.table.rows) {
      // Rows of a rank are hashes it owns.
      EXPECT_EQ(owner_of(row.hash, static_cast<int>(results.size())), static_cast<int>(r));
    }
    by_hash.insert(by_hash.end(), d.table.rows.begin(), d.table.rows.end());
    by_count.insert(by_count.end(), results[r].by_count.begin(), results[r].by_count.end());
    histogram.insert(histogram.end(), d.histogram.begin(), d.histogram.end());
    EXPECT_EQ(d.table.total, ref.total);
    EXPECT_EQ(d.table.distinct, ref.distinct);
    EXPECT_EQ(d.table.labeled, ref.by_hash.size());
    EXPECT_EQ(d.table.stop_removed, ref.stop_removed);

    // labeled_local: exactly this rank's local ids whose hash is labeled, ascending, tagged with
    // the global label id.
    std::vector<TaggedId> expected;
    const auto& digests = results[r].local_digests;
    for (std::uint32_t id = 0; id < digests.size(); ++id) {
      const auto it = ref.label_id.find(digests[id]);
      if (it != ref.label_id.end()) expected.push_back({id, it->second});
    }
    ASSERT_EQ(d.labeled_local.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(d.labeled_local[k].local_id, expected[k].local_id);
      EXPECT_EQ(d.labeled_local[k].tag, expected[k].tag);
    }
  }
  ASSERT_EQ(by_hash.size(), ref.by_hash.size());
  for (std::size_t i = 0; i < by_hash.size(); ++i) {
    EXPECT_TRUE(testing::same_row(by_hash[i], ref.by_hash[i]))
        << "row " << i << ": " << to_hex(by_hash[i].hash) << " count " << by_hash[i].count << " url '"
        << by_hash[i].sample_url << "' vs '" << ref.by_hash[i].sample_url << "' sample '" << by_hash[i].sample
        << "' vs '" << ref.by_hash[i].sample << "'";
  }
  ASSERT_EQ(by_count.size(), ref.by_count.size());
  for (std::size_t i = 0; i < by_count.size(); ++i)
    EXPECT_TRUE(testing::same_row(by_count[i], ref.by_count[i])) << "sorted row " << i;
  ASSERT_EQ(histogram.size(), ref.histogram.size());
  for (std::size_t i = 0; i < histogram.size(); ++i) {
    EXPECT_EQ(histogram[i].occurrences, ref.histogram[i].occurrences) << i;
    EXPECT_EQ(histogram[i].distinct, ref.histogram[i].distinct) << i;
  }
  (void)corpus;
}

class DiscoverLabels : public ::testing::TestWithParam<int> {};

TEST_P(DiscoverLabels, MatchesSingleThreadedReference) {
  const int nranks = GetParam();
  constexpr std::size_t kSample = 24;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Corpus corpus = testing::make_corpus(seed, nranks, 400, 300);
    // Stop two frequent items (low indexes are the most reused) and one that never occurs.
    const StopList stop = StopList::from_digests({corpus.items[0].hash, corpus.items[3].hash, sha1("never seen")});
    LabelRules rules{2, 6, &stop};
    const Reference ref = testing::reference(corpus, rules, kSample);
    ASSERT_GT(ref.by_hash.size(), 10u) << "fixture too small to be interesting";
    ASSERT_GT(ref.stop_removed, 0u);
    for (std::size_t round_bytes : {std::size_t{96}, std::size_t{1} << 20}) {
      SCOPED_TRACE("round_bytes " + std::to_string(round_bytes));
      const auto results = run(corpus, nranks, rules, kSample, round_bytes);
      check(corpus, results, ref);
      if (round_bytes == 96 && nranks > 1) {
        EXPECT_GT(results[0].totals.rounds, 3u) << "small budget: many rounds";
      }
    }
  }
}

TEST_P(DiscoverLabels, SameResultForAnyRankCount) {
  // The global sequences must not depend on the rank count: compare against a 1-rank run.
  const Corpus one = testing::make_corpus(42, 1, 300, 200);
  LabelRules rules{1, 0, nullptr};
  const auto base = run(one, 1, rules, 16, 1 << 16);
  Corpus spread = one;
  std::mt19937_64 rng(7);
  for (auto& p : spread.pages) p.rank = static_cast<int>(rng() % static_cast<std::uint64_t>(GetParam()));
  const auto many = run(spread, GetParam(), rules, 16, 1 << 16);
  std::vector<LabelRow> a = base[0].by_count, b;
  for (const auto& r : many) b.insert(b.end(), r.by_count.begin(), r.by_count.end());
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(testing::same_row(a[i], b[i])) << i;
}

TEST_P(DiscoverLabels, EmptyRanks) {
  const int nranks = GetParam();
  LabelRules rules{1, 0, nullptr};
  // Only the last rank holds pages.
  std::vector<int> empty;
  for (int r = 0; r + 1 < nranks; ++r) empty.push_back(r);
  const Corpus corpus = testing::make_corpus(5, nranks, 150, 100, empty);
  check(corpus, run(corpus, nranks, rules, 8, 256), testing::reference(corpus, rules, 8));
  // No rank holds anything.
  const Corpus nothing;
  const auto results = run(nothing, nranks, rules, 8, 256);
  for (const auto& r : results) {
    EXPECT_TRUE(r.discovery.table.rows.empty());
    EXPECT_TRUE(r.discovery.histogram.empty());
    EXPECT_EQ(r.discovery.table.total, 0u);
    EXPECT_EQ(r.discovery.table.distinct, 0u);
    EXPECT_EQ(r.discovery.table.labeled, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, DiscoverLabels, ::testing::Values(1, 2, 3, 4, 5));

// Hand-built: threshold edge, min_length and stop list, sample_url across ranks.
TEST(DiscoverLabelsEdges, ThresholdIsStrictAndStopItemsAreCounted) {
  const Digest twice = sha1("seen twice, twice");
  const Digest thrice = sha1("seen three times");
  const Digest tiny = sha1("ab");
  const Digest stopped = sha1("stopped item text");
  const StopList stop = StopList::from_digests({stopped});
  const LabelRules rules{2, 3, &stop};
  for (int nranks = 1; nranks <= 3; ++nranks) {
    std::vector<RankResult> results(static_cast<std::size_t>(nranks));
    comm::run_local(nranks, [&](comm::Transport& t) {
      // Rank r holds page "k<9-r>/p" (later ranks have smaller keys) and the same occurrences split.
      PageKeys keys{"k" + std::to_string(9 - t.rank()) + "/p"};
      LocalTally tally(4);
      const int me = t.rank();
      auto mine = [&](int occurrence) { return occurrence % t.size() == me; };
      for (int k = 0; k < 2; ++k)
        if (mine(k)) tally.add(twice, 17, "seen twice, twice", 0, keys);
      for (int k = 0; k < 3; ++k)
        if (mine(k)) tally.add(thrice, 16, "seen three times", 0, keys);
      for (int k = 0; k < 5; ++k)
        if (mine(k)) tally.add(tiny, 2, "ab", 0, keys);
      for (int k = 0; k < 4; ++k)
        if (mine(k)) tally.add(stopped, 17, "stopped item text", 0, keys);
      RankResult& out = results[static_cast<std::size_t>(me)];
      out.discovery = discover_labels(t, tally, keys, rules, 64, out.totals);
    });
    std::vector<LabelRow> rows;
    for (const auto& r : results) rows.insert(rows.end(), r.discovery.table.rows.begin(), r.discovery.table.rows.end());
    ASSERT_EQ(rows.size(), 1u) << nranks;
    EXPECT_EQ(rows[0].hash, thrice);
    EXPECT_EQ(rows[0].count, 3u);
    EXPECT_EQ(rows[0].length, 16u);
    EXPECT_EQ(rows[0].sample, "seen");
    // Occurrences 0..2 are on ranks 0..min(2, n-1): the largest such rank has the smallest key.
    EXPECT_EQ(rows[0].sample_url, "k" + std::to_string(9 - std::min(2, nranks - 1)) + "/p");
    const auto& table = results[0].discovery.table;
    EXPECT_EQ(table.total, 14u);
    EXPECT_EQ(table.distinct, 4u);
    EXPECT_EQ(table.labeled, 1u);
    EXPECT_EQ(table.stop_removed, 2u) << "tiny (min_length) and stopped (stop list), both over the threshold";
    EXPECT_EQ(table.threshold, 2u);
  }
}

}  // namespace
}  // namespace crd::discover
