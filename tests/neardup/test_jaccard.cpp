// crd neardup --min-jaccard: the bottom-k estimate against exact Jaccard on constructed shingle
// sets (its mean and spread), and the distributed check (find_pairs' candidates joined with their
// pages' samples, jaccard_check.hpp) against a serial reference written here, at 1–4 ranks, in
// tiny shuffle rounds, with capped buckets: pairs below the threshold dropped, those above kept.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <set>

#include "crd/comm/collectives.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/neardup/candidates.hpp"
#include "crd/neardup/clusters.hpp"
#include "crd/neardup/jaccard_check.hpp"
#include "crd/neardup/jaccard_sample.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/shingles.hpp"
#include "support/sketched_pages.hpp"

namespace crd::neardup {
namespace {

// Two shingle sets of `common` shared values and `only` values each of their own (J = common /
// (common + 2 only)), drawn afresh for each `trial`.
struct SetPair {
  std::vector<std::uint64_t> a, b;
};
SetPair sets_of(std::uint64_t common, std::uint64_t only, std::uint64_t trial) {
  SetPair s;
  std::uint64_t next = trial << 32;
  for (std::uint64_t i = 0; i < common; ++i) {
    const std::uint64_t v = text::mix64(next++);
    s.a.push_back(v);
    s.b.push_back(v);
  }
  for (std::uint64_t i = 0; i < only; ++i) s.a.push_back(text::mix64(next++));
  for (std::uint64_t i = 0; i < only; ++i) s.b.push_back(text::mix64(next++));
  return s;
}

TEST(JaccardSample, IsTheKSmallestDistinctHashesAscending) {
  std::vector<std::uint64_t> shingles;
  for (std::uint64_t i = 0; i < 5000; ++i) shingles.push_back(text::mix64(i));
  shingles.insert(shingles.end(), shingles.begin(), shingles.begin() + 100);  // repeats count once
  const auto sample = jaccard_sample(shingles, 64);
  ASSERT_EQ(sample.size(), 64u);
  std::vector<std::uint32_t> all;
  const std::uint64_t salt = text::seed(text::Domain::Sample, 0);
  for (std::uint64_t i = 0; i < 5000; ++i)
    all.push_back(static_cast<std::uint32_t>(text::mix64(text::mix64(i) ^ salt) >> 32));
  std::sort(all.begin(), all.end());
  EXPECT_EQ(sample, std::vector<std::uint32_t>(all.begin(), all.begin() + 64));
}

TEST(JaccardSample, IsExactWhenTheUnionFitsTheSample) {
  const SetPair s = sets_of(240, 30, 7);  // union 300 ≤ k: J = 240 / 300
  const auto e = estimate_jaccard(jaccard_sample(s.a, 1024), jaccard_sample(s.b, 1024), 1024);
  EXPECT_EQ(e.both, 240u);
  EXPECT_EQ(e.used, 300u);
  EXPECT_DOUBLE_EQ(e.value(), 0.8);
  EXPECT_TRUE(e.at_least(0.8));
  EXPECT_FALSE(e.at_least(0.8001));
}

// Over 200 independent draws of sets of 10,000 shingles at J = 0.8 (and 0.7), the estimates with
// k = 1024 average J and spread as sqrt(J (1 − J) / k · (u − k) / (u − 1)): 0.0119 at 0.8.
TEST(JaccardSample, EstimatesJaccardWithTheStatedSpread) {
  constexpr std::uint32_t k = 1024;
  for (const double j : {0.8, 0.7}) {
    const std::uint64_t u = 10000;
    const auto common = static_cast<std::uint64_t>(std::llround(j * u));
    const std::uint64_t only = (u - common) / 2;
    const double exact = static_cast<double>(common) / static_cast<double>(common + 2 * only);
    constexpr int kTrials = 200;
    double sum = 0, sum2 = 0;
    for (int t = 0; t < kTrials; ++t) {
      const SetPair s = sets_of(common, only, static_cast<std::uint64_t>(t) + 1);
      const double e = estimate_jaccard(jaccard_sample(s.a, k), jaccard_sample(s.b, k), k).value();
      sum += e;
      sum2 += e * e;
    }
    const double mean = sum / kTrials;
    const double sd = std::sqrt(sum2 / kTrials - mean * mean);
    const double want_sd = jaccard_sd(exact, k) * std::sqrt(static_cast<double>(u - k) / static_cast<double>(u - 1));
    EXPECT_NEAR(mean, exact, 4 * want_sd / std::sqrt(kTrials)) << j;
    EXPECT_NEAR(sd, want_sd, 0.15 * want_sd) << j;
  }
  EXPECT_NEAR(jaccard_sd(0.8, 1024), 0.0125, 1e-9);
}

// Pages of one 600-word text, each with a share of its words replaced by words of its own, so the
// pairs span Jaccard 0.3–0.98; bands of 2 min-values, one agreeing, make nearly every pair a
// candidate. Unrelated pages and two identical pages besides.
SketchParams params() {
  SketchParams p;
  p.k = 4;
  p.m = 24;
  p.m_prime = 12;
  p.jaccard_sample = 256;
  return p;
}

SketchedPage page_of(const std::string& key, const std::string& text) {
  return crd::testing::sketched_page(key, text, params(), /*with_sample=*/true);
}

std::vector<SketchedPage> make_pages() {
  std::vector<SketchedPage> pages;
  // Words replaced per 1,000 in page v: 4-token shingles make J(v0, v) about 0.96 for v1 … 0.4 for v9.
  const std::uint64_t replaced[] = {0, 2, 5, 10, 20, 35, 50, 70, 100, 130};
  for (int v = 0; v < 10; ++v) {
    std::string text;
    for (std::uint64_t i = 0; i < 600; ++i)
      text += text::mix64(i) % 1000 < replaced[v] ? "own" + std::to_string(v) + "x" + std::to_string(i) + " "
                                                  : "w" + std::to_string(i) + " ";
    pages.push_back(page_of("site.org/v" + std::to_string(v), text));
  }
  for (int u = 0; u < 4; ++u) {
    std::string text;
    for (int i = 0; i < 300; ++i) text += "u" + std::to_string(u) + "t" + std::to_string(i) + " ";
    pages.push_back(page_of("other.org/u" + std::to_string(u), text));
  }
  pages.push_back(page_of("twin.org/b", "alpha beta gamma delta epsilon zeta eta theta iota kappa"));
  pages.push_back(page_of("twin.org/a", "alpha beta gamma delta epsilon zeta eta theta iota kappa"));
  return pages;
}

PairRules rules_with(double min_jaccard, std::uint64_t max_bucket = 1000) {
  PairRules r;
  r.min_b_similarity = 1;
  r.min_jaccard = min_jaccard;
  r.max_bucket = max_bucket;
  return r;
}

struct Result {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::map<std::string, std::string> cluster;  // page → representative
  // Each pair's estimate, as its row carries it.
  std::map<std::pair<std::string, std::string>, double> jaccard;
  std::uint64_t dropped_pairs = 0, dropped_edges = 0, rounds = 0;
};

Result distributed(int nranks, const std::vector<SketchedPage>& all, const PairRules& rules,
                   std::size_t round_bytes = 4096) {
  Result run;
  std::mutex lock;
  comm::run_local(nranks, [&](comm::Transport& t) {
    std::vector<SketchedPage> mine;
    for (std::size_t i = all.size(); i-- > 0;)  // dealt from the end: another input order
      if (static_cast<int>(i % static_cast<std::size_t>(t.size())) == t.rank()) mine.push_back(all[i]);
    shuffle::ExchangeStats stats;
    const shuffle::ShuffleConfig config{round_bytes, &stats};
    const auto sets = group_identical(t, std::move(mine), config);
    BucketCaps caps;
    std::vector<ClusterEdge> edges;
    std::vector<JaccardCandidate> candidates;
    auto pairs = find_pairs(t, sets, rules, config, caps, {}, &edges, &candidates);
    EXPECT_TRUE(pairs.empty());
    EXPECT_TRUE(edges.empty());
    const auto offsets = set_ids(t, sets.size());
    auto checked =
        check_jaccard(t, sets, offsets, std::move(candidates), rules.min_jaccard, params().jaccard_sample, config);
    const Clusters c = label_clusters(t, sets, offsets, std::move(checked.edges), config);
    const auto rows = comm::allgather(t, c.rows);
    std::lock_guard guard(lock);
    for (const auto& p : checked.pairs) {
      run.pairs.emplace_back(p.page_a, p.page_b);
      run.jaccard[{p.page_a, p.page_b}] = p.jaccard;
    }
    for (const auto& part : rows)
      for (const auto& r : part) run.cluster[r.page] = r.cluster;
    run.dropped_pairs += checked.dropped_pairs;
    run.dropped_edges += checked.dropped_edges;
    run.rounds = std::max(run.rounds, stats.rounds);
  });
  std::sort(run.pairs.begin(), run.pairs.end());
  return run;
}

// The reference: every two distinct pages that share a supershingle, whose estimate (from their
// samples) is at least t; clusters by union–find over them and the identical pages.
Result serial(const std::vector<SketchedPage>& all, double t) {
  Result out;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < all.size(); ++i) index[all[i].pages[0]] = i;
  std::vector<std::string> keys;
  for (const auto& kv : index) keys.push_back(kv.first);
  std::map<std::string, std::string> parent;
  for (const auto& k : keys) parent[k] = k;
  const auto root = [&](std::string a) {
    while (parent[a] != a) a = parent[a];
    return a;
  };
  const auto join = [&](const std::string& a, const std::string& b) {
    const std::string ra = root(a), rb = root(b);
    parent[std::max(ra, rb)] = std::min(ra, rb);
  };
  for (std::size_t x = 0; x < keys.size(); ++x) {
    for (std::size_t y = x + 1; y < keys.size(); ++y) {
      const SketchedPage& a = all[index[keys[x]]];
      const SketchedPage& b = all[index[keys[y]]];
      if (a.identity == b.identity) {
        join(keys[x], keys[y]);
        continue;
      }
      if (b_similarity(a.sketch, b.sketch) < 1) continue;
      const JaccardEstimate e = estimate_jaccard(a.sample, b.sample, params().jaccard_sample);
      if (!e.at_least(t)) continue;
      out.pairs.emplace_back(keys[x], keys[y]);
      out.jaccard[{keys[x], keys[y]}] = e.value();
      join(keys[x], keys[y]);
    }
  }
  std::map<std::string, std::vector<std::string>> members;
  for (const auto& k : keys) members[root(k)].push_back(k);
  for (const auto& [r, list] : members)
    if (list.size() > 1)
      for (const auto& k : list) out.cluster[k] = r;
  return out;
}

class CheckJaccard : public ::testing::TestWithParam<int> {};

TEST_P(CheckJaccard, DropsThePairsBelowTheThresholdAndKeepsThoseAbove) {
  const auto pages = make_pages();
  const Result off = distributed(GetParam(), pages, rules_with(0.0));
  const Result on = distributed(GetParam(), pages, rules_with(0.8));
  const Result want = serial(pages, 0.8);
  EXPECT_EQ(on.pairs, want.pairs);
  EXPECT_EQ(on.cluster, want.cluster);
  EXPECT_EQ(on.jaccard, want.jaccard);  // each pair row carries its estimate
  EXPECT_EQ(off.pairs, serial(pages, 0.0).pairs);
  // v0 and v1 differ in a few words: kept; v0 and v8 share about half their shingles: dropped.
  const auto has = [](const Result& r, const char* a, const char* b) {
    return std::find(r.pairs.begin(), r.pairs.end(), std::pair<std::string, std::string>(a, b)) != r.pairs.end();
  };
  EXPECT_TRUE(has(on, "site.org/v0", "site.org/v1"));
  EXPECT_TRUE(has(off, "site.org/v0", "site.org/v8"));
  EXPECT_FALSE(has(on, "site.org/v0", "site.org/v8"));
  EXPECT_EQ(on.dropped_pairs, off.pairs.size() - on.pairs.size());
  EXPECT_GT(on.dropped_pairs, 0u);
  EXPECT_EQ(on.cluster.at("twin.org/b"), "twin.org/a");
  EXPECT_EQ(on.cluster.count("other.org/u0"), 0u);
}

TEST_P(CheckJaccard, TinyRoundsGiveTheSameResult) {
  const auto pages = make_pages();
  const Result big = distributed(GetParam(), pages, rules_with(0.8));
  const Result tiny = distributed(GetParam(), pages, rules_with(0.8), 64);
  if (GetParam() > 1) {
    EXPECT_GT(tiny.rounds, big.rounds + 10);
  }
  EXPECT_EQ(tiny.pairs, big.pairs);
  EXPECT_EQ(tiny.cluster, big.cluster);
  EXPECT_EQ(tiny.dropped_pairs, big.dropped_pairs);
}

// Every bucket capped: no pair is compared, and a capped bucket's edges (each member to its
// bucket's root) join a cluster only when their estimate passes, so the pages far from the rest
// stay out of it.
TEST_P(CheckJaccard, CappedBucketsJoinOnlyEdgesThatPass) {
  const auto pages = make_pages();
  const Result off = distributed(GetParam(), pages, rules_with(0.0, 3));
  const Result on = distributed(GetParam(), pages, rules_with(0.9, 3));
  EXPECT_TRUE(on.pairs.empty());
  EXPECT_GT(on.dropped_edges, 0u);
  EXPECT_EQ(off.cluster.at("site.org/v9"), "site.org/v0");
  EXPECT_EQ(on.cluster.count("site.org/v9"), 0u);
  EXPECT_EQ(on.cluster.at("site.org/v1"), "site.org/v0");
  // Whatever joins, joins through a pair whose estimate passes: the serial clusters at 0.9 hold it.
  const Result want = serial(pages, 0.9);
  for (const auto& [page, root] : on.cluster) EXPECT_EQ(want.cluster.at(page), want.cluster.at(root)) << page;
  EXPECT_EQ(on.cluster.at("twin.org/b"), "twin.org/a");
}

INSTANTIATE_TEST_SUITE_P(Ranks, CheckJaccard, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::neardup
