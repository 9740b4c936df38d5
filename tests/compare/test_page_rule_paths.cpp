// One page rule, three callers: the same pages through crd check's PageChecker, detect() and
// compare-hashing's evaluate() must be flagged alike, for fixed, binomial and automatic rules.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/detect/detection.hpp"
#include "crd/detect/page_check.hpp"
#include "crd/discover/digest_map.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/hash/sha1.hpp"
#include "page_confusion.hpp"
#include "sweep.hpp"

namespace crd::compare {
namespace {

// Pages of paragraphs drawn from a pool; the first paragraphs of the pool are labeled, and
// paragraphs shorter than kMinLength are stop chunks.
struct Corpus {
  std::vector<std::string> texts, keys;
  std::vector<std::uint64_t> page_offsets{0};
  std::vector<std::uint32_t> chunk_ids;  // by distinct digest
  std::vector<Digest> chunk_digest;
  std::vector<std::uint64_t> label_of;  // by chunk id
  std::vector<std::uint8_t> is_stop;    // by chunk id
  discover::DigestMap<std::uint32_t> label_index;
  std::uint32_t labels = 0;
};
constexpr std::uint64_t kMinLength = 12;

Corpus make_corpus() {
  std::mt19937_64 rng(7);
  std::vector<std::string> pool;
  for (int k = 0; k < 60; ++k)
    pool.push_back(k % 9 == 0 ? "x" + std::to_string(k) : "paragraph number " + std::to_string(k));
  Corpus c;
  for (int p = 0; p < 50; ++p) {
    std::string page = "<html><body>";
    const auto n = 1 + rng() % (p < 10 ? 60 : 12);  // a few long pages, where the chance floor matters
    for (std::uint64_t i = 0; i < n; ++i) page += "<p>" + pool[rng() % (p % 3 == 0 ? 25 : pool.size())] + "</p>";
    c.texts.push_back(page + "</body></html>");
    c.keys.push_back("h" + std::to_string(p % 4) + ".net/p" + std::to_string(p));
  }
  // Chunk ids, labels and stop chunks from the chunks the scan chunker emits.
  auto chunker = chunk::make_chunker(chunk::ChunkerKind::Scan, {});
  Sha1 sha1;
  discover::DigestMap<std::uint32_t> ids;
  for (const auto& text : c.texts) {
    chunker->chunk(text, "", [&](std::string_view normalized) {
      const Digest d = sha1(normalized);
      bool inserted = false;
      std::uint32_t& id = ids.find_or_insert(d, inserted);
      if (inserted) {
        id = static_cast<std::uint32_t>(c.chunk_digest.size());
        c.chunk_digest.push_back(d);
        c.is_stop.push_back(normalized.size() < kMinLength ? 1 : 0);
        const bool labeled = normalized.find("number 1") != std::string_view::npos;  // 1, 10…19
        c.label_of.push_back(labeled ? c.labels : detect::kNoLabel);
        if (labeled) c.label_index.find_or_insert(d, inserted) = c.labels++;
      }
      c.chunk_ids.push_back(id);
    });
    c.page_offsets.push_back(c.chunk_ids.size());
  }
  return c;
}

struct Case {
  std::string rule;
  std::uint64_t min_labeled;
};

// detect() on one rank: page key → flagged, and the page threshold it resolved.
std::set<std::string> detect_flags(const Corpus& c, const detect::DetectOptions& options, double& threshold) {
  std::set<std::string> flagged;
  comm::run_local(1, [&](comm::Transport& t) {
    const detect::PageScores scores = detect::score_pages(c.page_offsets, c.chunk_ids, c.label_of, c.is_stop);
    detect::LabelSlice slice;
    for (std::uint32_t id = 0; id < c.labels; ++id) {
      slice.hashes.push_back(Digest{});
      slice.hashes.back().bytes[0] = static_cast<std::uint8_t>(id);
      slice.lengths.push_back(1);
      slice.samples.push_back("l");
    }
    const detect::DetectionResult r = detect::detect(t, c.keys, scores, slice, options, 1 << 20);
    for (const auto& row : r.pages)
      if (row.flagged) flagged.insert(row.url);
    threshold = r.stats.page_threshold;
  });
  return flagged;
}

TEST(PageRulePaths, CheckDetectAndCompareHashingFlagTheSamePages) {
  const Corpus c = make_corpus();
  ASSERT_GT(c.labels, 3u);
  for (const Case& k : {Case{"0.3", 1}, Case{"0.3", 3}, Case{"binomial:0.05:0.01", 1}, Case{"auto", 1}}) {
    SCOPED_TRACE(k.rule + " min-labeled " + std::to_string(k.min_labeled));
    detect::DetectOptions options;
    options.page_threshold = detect::Threshold::parse(k.rule, "page-threshold");
    options.min_labeled = k.min_labeled;
    double threshold = 0;
    const std::set<std::string> by_detect = detect_flags(c, options, threshold);

    // crd check: each page alone; an automatic rule at the threshold detect resolved.
    auto chunker = chunk::make_chunker(chunk::ChunkerKind::Scan, {});
    const discover::LabelRules stop{0, kMinLength, nullptr, 0};
    detect::PageChecker checker(*chunker, stop, c.label_index,
                                detect::PageRule(options.page_threshold, threshold, k.min_labeled));
    std::set<std::string> by_check;
    for (std::size_t p = 0; p < c.texts.size(); ++p) {
      const detect::PageCheck page = checker.check(c.texts[p]);
      ASSERT_TRUE(page.skipped.empty());
      if (page.verdict.flagged) by_check.insert(c.keys[p]);
    }
    EXPECT_EQ(by_check, by_detect);
    ASSERT_FALSE(by_detect.empty());
    ASSERT_LT(by_detect.size(), c.texts.size());

    // compare-hashing at its SHA-1 point, the truth being detect's flagged pages: no false
    // positive and no false negative means the same flags.
    std::string truth_text;
    for (const auto& key : by_detect) truth_text += key + "\n";
    const TruthPrefixes truth = TruthPrefixes::parse(truth_text, "truth");
    std::vector<BestScores> best(c.chunk_digest.size());
    const ShardMatches shard{c.page_offsets, c.chunk_ids, c.keys, c.is_stop, c.label_of, best};
    const std::vector<SweepPoint> sha1_point{SweepPoint{Method::Sha1, 0, true}};
    std::vector<output::ConfusionRow> rows;
    comm::run_local(1, [&](comm::Transport& t) {
      rows = evaluate(t, shard, truth, sha1_point, EvaluationOptions{options.page_threshold, k.min_labeled});
    });
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].tp, by_detect.size());
    EXPECT_EQ(rows[0].fp, 0u);
    EXPECT_EQ(rows[0].fn, 0u);
    EXPECT_EQ(rows[0].page_threshold, threshold);
  }
}

}  // namespace
}  // namespace crd::compare
