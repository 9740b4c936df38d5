// crd merge's core on the thread transport: discover_labels over batches of a corpus (keeping
// counts), then reduce_counts + label_counts over their count rows on another rank count, equals
// one discovery over the whole corpus — rows, samples, figures, histogram — and the count rows
// kept are every distinct hash, ascending over the ranks.
#include <gtest/gtest.h>

#include "crd/comm/local_transport.hpp"
#include "discover_fixture.hpp"

namespace crd::discover {
namespace {

using testing::Corpus;

struct Batch {
  std::vector<CountRow> counts;             // in rank order
  std::vector<AnnotationRecord> annotated;  // the batch's labeled rows
};

// Discovery of one batch of pages on `nranks` ranks, labeling every chunk (threshold 0), as the
// batches' own discover runs would with --chunk-threshold 0 --keep-counts.
Batch discover_batch(const Corpus& batch, int nranks, std::size_t sample_bytes) {
  std::vector<TallyDiscovery> per_rank(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    testing::RankInput in = testing::rank_input(batch, t.rank(), sample_bytes);
    ShuffleTotals totals;
    per_rank[static_cast<std::size_t>(t.rank())] = discover_labels(t, in.tally, in.keys, LabelRules{}, 64, totals, true);
  });
  Batch out;
  for (auto& d : per_rank) {
    out.counts.insert(out.counts.end(), d.counts.begin(), d.counts.end());
    for (auto& row : d.table.rows) out.annotated.push_back({row.hash, row.sample_url, row.sample});
  }
  return out;
}

Corpus pages_where(const Corpus& c, int nranks, bool (*keep)(std::size_t)) {
  Corpus out{c.items, {}};
  for (std::size_t p = 0; p < c.pages.size(); ++p) {
    if (!keep(p)) continue;
    out.pages.push_back(c.pages[p]);
    out.pages.back().rank = static_cast<int>(p % static_cast<std::size_t>(nranks));
  }
  return out;
}

TEST(LabelCounts, MergedBatchesEqualOneDiscovery) {
  constexpr std::size_t kSample = 16;
  const Corpus corpus = testing::make_corpus(17, 1, 400, 300);
  for (int batch_ranks : {1, 3}) {
    const Batch a = discover_batch(pages_where(corpus, batch_ranks, [](std::size_t p) { return p % 2 == 0; }), batch_ranks, kSample);
    const Batch b = discover_batch(pages_where(corpus, batch_ranks, [](std::size_t p) { return p % 2 == 1; }), batch_ranks, kSample);
    for (const auto* batch : {&a, &b})
      for (std::size_t i = 1; i < batch->counts.size(); ++i) ASSERT_LT(batch->counts[i - 1].hash, batch->counts[i].hash);

    for (int nranks : {1, 2, 4}) {
      for (const LabelRules rules : {LabelRules{2, 5, nullptr, 0}, LabelRules{1, 0, nullptr, 7}}) {
        SCOPED_TRACE("batches on " + std::to_string(batch_ranks) + " ranks, merged on " + std::to_string(nranks) +
                     ", threshold " + std::to_string(rules.threshold));
        const testing::Reference ref = testing::reference(corpus, rules, kSample);
        std::vector<TallyDiscovery> merged(static_cast<std::size_t>(nranks));
        std::vector<std::vector<LabelRow>> by_count(merged.size());
        comm::run_local(nranks, [&](comm::Transport& t) {
          // Each rank reads a share of each batch's rows, as crd merge reads the files.
          std::vector<CountRow> counts;
          std::vector<AnnotationRecord> notes;
          for (const auto* batch : {&a, &b}) {
            for (std::size_t i = 0; i < batch->counts.size(); ++i)
              if (i % static_cast<std::size_t>(nranks) == static_cast<std::size_t>(t.rank())) counts.push_back(batch->counts[i]);
            for (std::size_t i = 0; i < batch->annotated.size(); ++i)
              if (i % static_cast<std::size_t>(nranks) == static_cast<std::size_t>(t.rank())) notes.push_back(batch->annotated[i]);
          }
          ShuffleTotals totals;
          const OwnerTally owned = reduce_counts(t, std::move(counts), 64, totals);
          auto& out = merged[static_cast<std::size_t>(t.rank())];
          out = label_counts(t, owned, std::move(notes), rules, 64, totals);
          by_count[static_cast<std::size_t>(t.rank())] = sort_by_count(t, out.table.rows, 64);
        });
        std::vector<LabelRow> rows;
        std::vector<HistogramRow> histogram;
        std::vector<CountRow> kept;
        for (std::size_t r = 0; r < merged.size(); ++r) {
          const auto& d = merged[r];
          EXPECT_EQ(d.table.total, ref.total);
          EXPECT_EQ(d.table.distinct, ref.distinct);
          EXPECT_EQ(d.table.stop_removed, ref.stop_removed);
          rows.insert(rows.end(), by_count[r].begin(), by_count[r].end());
          histogram.insert(histogram.end(), d.histogram.begin(), d.histogram.end());
          kept.insert(kept.end(), d.counts.begin(), d.counts.end());
        }
        std::vector<LabelRow> expected = ref.by_count;
        if (rules.top != 0 && expected.size() > rules.top) expected.resize(rules.top);
        ASSERT_EQ(rows.size(), expected.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
          EXPECT_TRUE(testing::same_row(rows[i], expected[i]))
              << i << ": " << rows[i].count << " " << rows[i].sample_url << " vs " << expected[i].count << " "
              << expected[i].sample_url;
        }
        ASSERT_EQ(histogram.size(), ref.histogram.size());
        for (std::size_t i = 0; i < histogram.size(); ++i) {
          EXPECT_EQ(histogram[i].occurrences, ref.histogram[i].occurrences);
          EXPECT_EQ(histogram[i].distinct, ref.histogram[i].distinct);
        }
        // The merged counts: every distinct hash once, ascending, with its total count.
        ASSERT_EQ(kept.size(), ref.distinct);
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < kept.size(); ++i) {
          if (i > 0) {
            EXPECT_LT(kept[i - 1].hash, kept[i].hash);
          }
          sum += kept[i].count;
        }
        EXPECT_EQ(sum, ref.total);
      }
    }
  }
}

// A label no batch annotated (each batch saw it too rarely to label it) keeps an empty sample.
TEST(LabelCounts, UnannotatedLabelsHaveNoSample) {
  const Digest h = sha1("x");
  comm::run_local(2, [&](comm::Transport& t) {
    std::vector<CountRow> counts;
    if (t.rank() == 0) counts = {{h, 3, 1}, {h, 4, 1}};
    ShuffleTotals totals;
    const OwnerTally owned = reduce_counts(t, std::move(counts), 64, totals);
    const TallyDiscovery d = label_counts(t, owned, {}, LabelRules{5, 0, nullptr, 0}, 64, totals);
    EXPECT_EQ(d.table.labeled, 1u);
    EXPECT_EQ(d.table.total, 7u);
    for (const auto& row : d.table.rows) {
      EXPECT_EQ(row.hash, h);
      EXPECT_EQ(row.count, 7u);
      EXPECT_EQ(row.sample, "");
      EXPECT_EQ(row.sample_url, "");
    }
  });
}

}  // namespace
}  // namespace crd::discover
