// The combined page rule (--chunker winnow+scan, docs/winnow.md "Deletions: the combined mode"):
// each part's counts, the flag of either part, the stated level, and detect() flagging a copy cut
// down to a few whole paragraphs (every exact chunk copied, too few grams for the binomial test)
// but not pages that share a template chunk and a gram or two, at 1 to 3 ranks alike; and the same
// cut copy under the stop grams per host.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crd/base/error.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/detect/combined_rule.hpp"
#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

// Chunk ids: 0..99 exact chunks, 100.. grams; labeled: exact 0..49 and grams 100..149; 7 is a stop chunk.
constexpr std::uint32_t kIds = 1000;
struct Kinds {
  std::vector<std::uint64_t> label_of = std::vector<std::uint64_t>(kIds, kNoLabel);
  std::vector<std::uint8_t> is_stop = std::vector<std::uint8_t>(kIds, 0);
  std::vector<std::uint8_t> is_exact = std::vector<std::uint8_t>(kIds, 0);
  Kinds() {
    for (std::uint32_t id = 0; id < kIds; ++id) {
      if (id < 100) is_exact[id] = 1;
      if (id < 50 || (id >= 100 && id < 150)) label_of[id] = id;
    }
    is_stop[7] = 1;
  }
};

// Rank `rank`'s slice of the label ids 0 … kIds - 1 (every id may be a label id).
LabelSlice slice(int rank, int nranks) {
  const auto firsts = testing::slice_firsts(kIds, nranks);
  LabelSlice out;
  out.first_id = firsts[static_cast<std::size_t>(rank)];
  const std::uint64_t end = rank + 1 < nranks ? firsts[static_cast<std::size_t>(rank) + 1] : kIds;
  for (std::uint64_t id = out.first_id; id < end; ++id) {
    Digest d;
    d.bytes[0] = static_cast<std::uint8_t>(id >> 8);  // ascending with the id, as hash order is
    d.bytes[1] = static_cast<std::uint8_t>(id);
    out.hashes.push_back(d);
    out.lengths.push_back(1);
    out.samples.push_back("label " + std::to_string(id));
  }
  return out;
}

PageScores scored(const Kinds& k, const std::vector<std::vector<std::uint32_t>>& pages) {
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint32_t> ids;
  for (const auto& p : pages) {
    ids.insert(ids.end(), p.begin(), p.end());
    offsets.push_back(ids.size());
  }
  PageScores s = score_pages(offsets, ids, k.label_of, k.is_stop);
  score_exact_part(s, offsets, ids, k.label_of, k.is_stop, k.is_exact);
  return s;
}

// n ids from `first` on.
std::vector<std::uint32_t> run(std::uint32_t first, std::uint32_t n) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < n; ++i) out.push_back(first + i);
  return out;
}
std::vector<std::uint32_t> operator+(std::vector<std::uint32_t> a, const std::vector<std::uint32_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(CombinedRule, CountsEachPartAfterStopRemoval) {
  const Kinds k;
  // Page 0: exact 5..9 (7 is a stop chunk: 4 left, all labeled), exact 60 (unlabeled), grams 148..151.
  // Page 1: only a stop chunk, so not scored. Page 2: grams only.
  const PageScores s = scored(k, {run(5, 5) + run(60, 1) + run(148, 4), {7}, run(140, 3)});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.page, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(s.chunks, (std::vector<std::uint32_t>{9, 3}));
  EXPECT_EQ(s.labeled, (std::vector<std::uint32_t>{6, 3}));
  EXPECT_EQ(s.exact_chunks, (std::vector<std::uint32_t>{5, 0}));
  EXPECT_EQ(s.exact_labeled, (std::vector<std::uint32_t>{4, 0}));
}

TEST(CombinedRule, EitherPartFlagsAtItsOwnFloor) {
  const Kinds k;
  ChanceFloor floor(0.01, 1e-4);
  ASSERT_EQ(floor.min_labeled(3), 3u);  // 3 of 3 at R = 1 %: 10⁻⁶; 2 of 3: 3 × 10⁻⁴
  const PageScores s = scored(k, {
                                     // A deletion: 3 copied paragraphs, 40 grams of which none labeled
                                     // (the grams across the cuts and the page's own). On the totals
                                     // (3 of 43) the binomial test fails; the exact part passes.
                                     run(10, 3) + run(500, 40),
                                     // 2 copied paragraphs and an unlabeled one: 2 of 3 is 3 × 10⁻⁴.
                                     run(10, 2) + run(60, 1) + run(500, 40),
                                     // A template chunk and 2 grams of 30 shared: chance on both parts.
                                     run(0, 1) + run(60, 1) + run(100, 2) + run(600, 28),
                                     // An edited copy: grams 12 of 20 labeled, its paragraphs all edited.
                                     run(60, 6) + run(100, 12) + run(700, 8),
                                 });
  const Threshold binomial = Threshold::parse("binomial", "page-threshold");
  PageRule combined(binomial, 0.01, 1, true);
  std::vector<bool> want{true, false, false, true};
  for (std::size_t i = 0; i < s.size(); ++i) EXPECT_EQ(combined.judge(page_counts(s, i)).flagged, want[i]) << i;
  // Not flagged, a page gives the reason of the part that came further: page 1's exact part has
  // 2 of 3 labeled, above R but below its floor.
  EXPECT_EQ(combined.judge(page_counts(s, 1)).reason, PageReason::BelowChanceFloor);
  // The single rule on the totals misses the deletion.
  EXPECT_LT(s.labeled[0], floor.min_labeled(s.chunks[0]));
  PageRule single(binomial, 0.01, 1);
  EXPECT_FALSE(single.judge(page_counts(s, 0)).flagged);
  // min_labeled applies to each part: 3 labeled exact chunks are not 4.
  PageRule four(binomial, 0.01, 4, true);
  EXPECT_FALSE(four.judge(page_counts(s, 0)).flagged);
  EXPECT_EQ(combined_level(1e-4), 2e-4) << "union bound of the two parts' levels";
}

TEST(CombinedRule, DetectFlagsADeletionAtAnyRankCount) {
  const Kinds k;
  std::vector<testing::Page> pages;
  const auto add = [&](const std::string& key, std::vector<std::uint32_t> chunks) {
    pages.push_back({key, std::move(chunks), 0});
  };
  for (int i = 0; i < 10; ++i) add("cut.example/p" + std::to_string(i), run(10 + i, 3) + run(500 + 40 * i, 30));
  for (int i = 0; i < 30; ++i)
    add("bg.example/p" + std::to_string(i), run(0, 1) + run(60 + i % 30, 2) + run(100 + i % 40, 2) + run(800, 30));
  std::vector<std::vector<PageRow>> by_ranks;
  for (int nranks : {1, 2, 3}) {
    DetectOptions o;
    o.page_threshold = Threshold::parse("binomial", "page-threshold");
    o.max_neighborhood_depth = 0;
    o.combined = true;
    std::vector<std::vector<PageRow>> rows(static_cast<std::size_t>(nranks));
    comm::run_local(nranks, [&](comm::Transport& t) {
      std::vector<std::string> keys;
      std::vector<std::vector<std::uint32_t>> mine;
      for (std::size_t i = 0; i < pages.size(); ++i)
        if (static_cast<int>(i % static_cast<std::size_t>(nranks)) == t.rank()) {
          keys.push_back(pages[i].key);
          mine.push_back(pages[i].chunks);
        }
      rows[static_cast<std::size_t>(t.rank())] =
          detect(t, keys, scored(k, mine), slice(t.rank(), nranks), o, 256).pages;
    });
    std::vector<PageRow> all;
    for (const auto& r : rows) all.insert(all.end(), r.begin(), r.end());
    ASSERT_EQ(all.size(), pages.size());
    for (const PageRow& p : all) EXPECT_EQ(p.flagged, p.url.rfind("cut.example/", 0) == 0 ? 1 : 0) << p.url;
    by_ranks.push_back(all);
  }
  for (std::size_t r = 1; r < by_ranks.size(); ++r)
    for (std::size_t i = 0; i < by_ranks[0].size(); ++i) {
      EXPECT_EQ(by_ranks[r][i].url, by_ranks[0][i].url);
      EXPECT_EQ(by_ranks[r][i].flagged, by_ranks[0][i].flagged);
    }
  // Without the combined rule, the same pages are not flagged: 3 labeled of 33 is chance at R = 1 %.
  DetectOptions single;
  single.page_threshold = Threshold::parse("binomial", "page-threshold");
  std::vector<PageRow> rows;
  comm::run_local(1, [&](comm::Transport& t) {
    std::vector<std::string> keys;
    std::vector<std::vector<std::uint32_t>> all;
    for (const auto& p : pages) {
      keys.push_back(p.key);
      all.push_back(p.chunks);
    }
    rows = detect(t, keys, scored(k, all), slice(0, 1), single, 256).pages;
  });
  for (const PageRow& p : rows) EXPECT_EQ(p.flagged, 0) << p.url;
}

TEST(CombinedRule, NeedsTheBinomialPageRule) {
  DetectOptions o;
  o.combined = true;
  o.page_threshold = Threshold::parse("auto", "page-threshold");
  EXPECT_THROW(comm::run_local(1, [&](comm::Transport& t) { detect(t, {}, PageScores{}, {}, o, 256); }), UsageError);
}

// Under the stop grams per host (--host-stop-pages, host_stop.hpp) a copy cut down to three copied
// paragraphs, one of them the site's template chunk, is still flagged: the exact part keeps every
// exact chunk, template included, while the gram part drops the 6-gram phrase that all 30 pages
// of bg.example hold (and that flags them without the stop).
TEST(CombinedRule, DeletionFlaggedUnderTheStopGramsPerHost) {
  const Kinds k;
  std::vector<testing::Page> pages;
  for (std::uint32_t i = 0; i < 10; ++i)
    pages.push_back({"cut.example/p" + std::to_string(i), run(0, 1) + run(10 + 2 * i, 2) + run(500, 30), 0});
  for (int i = 0; i < 30; ++i)
    pages.push_back({"bg.example/p" + std::to_string(i), run(0, 1) + run(100, 6) + run(800, 24), 0});
  for (std::uint64_t stop : {0u, 20u}) {
    for (int nranks : {1, 2}) {
      SCOPED_TRACE("host-stop-pages " + std::to_string(stop) + ", ranks " + std::to_string(nranks));
      DetectOptions o;
      o.page_threshold = Threshold::parse("binomial", "page-threshold");
      o.max_neighborhood_depth = 0;
      o.combined = true;
      o.host_stop_pages = stop;
      std::vector<std::vector<PageRow>> rows(static_cast<std::size_t>(nranks));
      std::uint64_t stopped = 0;
      comm::run_local(nranks, [&](comm::Transport& t) {
        std::vector<std::string> keys;
        std::vector<std::vector<std::uint32_t>> mine;
        for (std::size_t i = 0; i < pages.size(); ++i)
          if (static_cast<int>(i % static_cast<std::size_t>(nranks)) == t.rank()) {
            keys.push_back(pages[i].key);
            mine.push_back(pages[i].chunks);
          }
        const DetectionResult r = detect(t, keys, scored(k, mine), slice(t.rank(), nranks), o, 64);
        rows[static_cast<std::size_t>(t.rank())] = r.pages;
        if (t.rank() == 0) stopped = r.stats.host_stop_labels;
      });
      EXPECT_EQ(stopped, stop == 0 ? 0u : 6u) << "the phrase's 6 grams; the template is an exact chunk";
      for (const auto& r : rows)
        for (const PageRow& p : r)
          EXPECT_EQ(p.flagged, p.url.rfind("cut.example/", 0) == 0 || stop == 0 ? 1 : 0) << p.url;
    }
  }
}

}  // namespace
}  // namespace crd::detect
