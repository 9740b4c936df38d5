// Clusters and representatives on the thread transport (1–4 ranks) against a serial reference
// written here: union–find over every pair of identity sets that share a bucket and that the
// method accepts, plus each set's identical pages; the representative is a cluster's smallest page
// key. Capped buckets still join their near-identical members (without their pairs), and
// --max-pairs bounds the pairs, the largest buckets' first, while the clusters stay complete.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <numeric>
#include <set>

#include "crd/comm/collectives.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/neardup/candidates.hpp"
#include "crd/neardup/clusters.hpp"
#include "support/sketched_pages.hpp"

namespace crd::neardup {
namespace {

SketchParams sketch_params;  // the pages' sketch parameters (make_pages)

SketchedPage page_of(const std::string& key, const std::string& text) {
  return crd::testing::sketched_page(key, text, sketch_params);
}

// Families of near-copies (a word or two appended), chained families (each page near its
// neighbours only, so the cluster is one through a chain of pairs), exact copies, unrelated pages.
std::vector<SketchedPage> make_pages(const SketchParams& params = {}) {
  sketch_params = params;
  std::vector<SketchedPage> pages;
  for (int f = 0; f < 4; ++f) {
    std::string base;
    for (int i = 0; i < 300; ++i) base += "f" + std::to_string(f) + "w" + std::to_string(i * 7 % 1009) + " ";
    for (int v = 0; v < 9; ++v) {
      std::string text = base;
      if (v > 0) text += "variant" + std::to_string(v) + " extra" + std::to_string(v * v);
      // Keys out of order against the variants, so the representative is not always v0.
      pages.push_back(page_of("www.site" + std::to_string(f) + ".org/p" + std::to_string((v * 5) % 9), text));
      if (v == 3) pages.push_back(page_of("a-mirror" + std::to_string(f) + ".net/v3", text));
    }
  }
  // A chain: page c is a 400-word window of one long text, starting 2c words in, so neighbours
  // are near-duplicates and the chain's ends are not (their windows share 362 of 438 words).
  for (int c = 0; c < 20; ++c) {
    std::string text;
    for (int i = 2 * c; i < 2 * c + 400; ++i) text += "chain" + std::to_string(i * 37 % 1009) + " ";
    pages.push_back(page_of("chain.org/c" + std::to_string(100 + c), text));
  }
  for (int u = 0; u < 10; ++u) {
    std::string text;
    for (int i = 0; i < 200; ++i) text += "u" + std::to_string(u) + "t" + std::to_string(i) + " ";
    pages.push_back(page_of("other.org/u" + std::to_string(u), text));
  }
  // Two pages identical to each other and near nothing else: a cluster of identical pages only.
  pages.push_back(page_of("twin.org/b", "alpha beta gamma delta epsilon zeta eta theta iota kappa"));
  pages.push_back(page_of("twin.org/a", "alpha beta gamma delta epsilon zeta eta theta iota kappa"));
  return pages;
}

struct ClusterSet {
  std::vector<ClusterRow> rows;
  std::vector<RepresentativeRow> representatives;
  std::vector<PairRow> pairs;  // the reference's: every accepted pair of sets sharing a bucket (uncapped)
};

std::uint32_t positions(const Sketch& s, const PairRules& rules) {
  return rules.method == Method::SimHash ? static_cast<std::uint32_t>(s.bits.size() * 64 / rules.piece_bits)
                                         : static_cast<std::uint32_t>(s.super.size());
}
std::uint64_t value_at(const Sketch& s, std::uint32_t i, const PairRules& rules) {
  return rules.method == Method::SimHash ? simhash_piece(s, i, rules.piece_bits) : s.super[i];
}

ClusterSet serial_clusters(const std::vector<SketchedPage>& all, const PairRules& rules) {
  std::map<Digest, std::vector<std::string>> members;
  std::map<Digest, Sketch> sketches;
  for (const auto& p : all) {
    members[p.identity].push_back(p.pages[0]);
    sketches[p.identity] = p.sketch;
  }
  std::vector<Digest> ids;
  for (const auto& kv : members) ids.push_back(kv.first);
  for (auto& kv : members) std::sort(kv.second.begin(), kv.second.end());
  std::vector<PairRow> pairs;
  std::vector<std::size_t> parent(ids.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](std::size_t a) {
    while (parent[a] != a) a = parent[a];
    return a;
  };
  for (std::size_t x = 0; x < ids.size(); ++x) {
    for (std::size_t y = x + 1; y < ids.size(); ++y) {
      const Sketch& a = sketches[ids[x]];
      const Sketch& b = sketches[ids[y]];
      bool share = false;
      for (std::uint32_t i = 0; i < positions(a, rules); ++i)
        share = share || value_at(a, i, rules) == value_at(b, i, rules);
      if (!share || !accepted(rules, b_similarity(a, b), c_similarity(a, b))) continue;
      parent[std::max(root(x), root(y))] = std::min(root(x), root(y));
      const auto [first, second] = std::minmax(members[ids[x]].front(), members[ids[y]].front());
      pairs.push_back({first, second, b_similarity(a, b), c_similarity(a, b), 0});
    }
  }
  std::map<std::size_t, std::vector<std::string>> clusters;
  for (std::size_t x = 0; x < ids.size(); ++x) {
    auto& list = clusters[root(x)];
    list.insert(list.end(), members[ids[x]].begin(), members[ids[x]].end());
  }
  ClusterSet out;
  for (auto& [r, pages] : clusters) {
    if (pages.size() < 2) continue;
    std::sort(pages.begin(), pages.end());
    out.representatives.push_back({pages.front(), pages.size()});
    for (const auto& p : pages) out.rows.push_back({p, pages.front()});
  }
  std::sort(out.rows.begin(), out.rows.end(), FieldLess{});
  std::sort(out.representatives.begin(), out.representatives.end(), FieldLess{});
  std::sort(pairs.begin(), pairs.end(), FieldLess{});
  out.pairs = std::move(pairs);
  return out;
}

struct Found {
  ClusterSet clusters;
  std::vector<PairRow> pairs;
  BucketCaps caps;
  std::uint64_t rounds = 0;        // shuffle rounds of the busiest rank
  std::uint64_t bucket_bytes = 0;  // what the busiest rank's buckets held while compared (PairVolume)
  std::uint64_t fetch_bytes = 0;   // its peak while fetching the members' sketches (before_fetching)
};

Found distributed(int nranks, const std::vector<SketchedPage>& all, const PairRules& rules,
                  std::size_t round_bytes = 4096) {
  Found run;
  std::mutex lock;
  comm::run_local(nranks, [&](comm::Transport& t) {
    std::vector<SketchedPage> mine;
    // Dealt from the end, so the input order differs from the reference's.
    for (std::size_t i = all.size(); i-- > 0;)
      if (static_cast<int>(i % static_cast<std::size_t>(t.size())) == t.rank()) mine.push_back(all[i]);
    shuffle::ExchangeStats stats;
    const shuffle::ShuffleConfig config{round_bytes, &stats};
    const auto sets = group_identical(t, std::move(mine), config);
    BucketCaps caps;
    std::vector<ClusterEdge> edges;
    std::uint64_t forest_bytes = 0, bucket_bytes = 0, fetch_bytes = 0;
    auto pairs = find_pairs(
        t, sets, rules, config, caps,
        [&](const PairVolume& v) {
          forest_bytes = v.forest_bytes;
          bucket_bytes = v.bucket_bytes;
        },
        &edges, nullptr, [&](std::uint64_t bytes) { fetch_bytes = bytes; });
    // --memory counts the cluster edges before they are made: never fewer than are made.
    EXPECT_GE(forest_bytes, edges.size() * sizeof(ClusterEdge));
    if (!sets.empty()) {
      EXPECT_GT(forest_bytes, 0u);
    }
    const Clusters c = label_clusters(t, sets, set_ids(t, sets.size()), std::move(edges), config);
    // Each rank's rows follow the previous rank's (sorted across ranks): concatenated by rank.
    const auto rows = comm::allgather(t, c.rows);
    const auto reps = comm::allgather(t, c.representatives);
    std::lock_guard guard(lock);
    if (t.rank() == 0) {
      for (const auto& part : rows) run.clusters.rows.insert(run.clusters.rows.end(), part.begin(), part.end());
      for (const auto& part : reps)
        run.clusters.representatives.insert(run.clusters.representatives.end(), part.begin(), part.end());
    }
    run.pairs.insert(run.pairs.end(), pairs.begin(), pairs.end());
    run.caps.buckets += caps.buckets, run.caps.unlinked += caps.unlinked,
        run.caps.pairs_not_kept += caps.pairs_not_kept;
    run.rounds = std::max(run.rounds, stats.rounds);
    run.bucket_bytes = std::max(run.bucket_bytes, bucket_bytes);
    run.fetch_bytes = std::max(run.fetch_bytes, fetch_bytes);
  });
  std::sort(run.pairs.begin(), run.pairs.end(), FieldLess{});
  return run;
}

void expect_same(const ClusterSet& got, const ClusterSet& want, const std::string& what) {
  ASSERT_EQ(got.rows.size(), want.rows.size()) << what;
  for (std::size_t i = 0; i < want.rows.size(); ++i) {
    EXPECT_EQ(got.rows[i].page, want.rows[i].page) << what << " row " << i;
    EXPECT_EQ(got.rows[i].cluster, want.rows[i].cluster) << what << " row " << i;
  }
  ASSERT_EQ(got.representatives.size(), want.representatives.size()) << what;
  for (std::size_t i = 0; i < want.representatives.size(); ++i) {
    EXPECT_EQ(got.representatives[i].representative, want.representatives[i].representative) << what;
    EXPECT_EQ(got.representatives[i].pages, want.representatives[i].pages) << what;
  }
}

std::string cluster_of(const ClusterSet& c, const std::string& page) {
  for (const auto& r : c.rows)
    if (r.page == page) return r.cluster;
  return "";
}

class Clusters : public ::testing::TestWithParam<int> {};

TEST_P(Clusters, EqualTheSerialReferenceForEveryMethod) {
  const auto pages = make_pages();
  for (const Method method : {Method::MinHash, Method::SimHash, Method::Combined}) {
    PairRules rules;
    rules.method = method;
    const std::string what = "method " + std::to_string(static_cast<int>(method));
    const ClusterSet want = serial_clusters(pages, rules);
    const Found run = distributed(GetParam(), pages, rules);
    expect_same(run.clusters, want, what);
    // Rows are sorted (by page), and every page of a cluster names its smallest page key.
    EXPECT_TRUE(std::is_sorted(run.clusters.rows.begin(), run.clusters.rows.end(), FieldLess{})) << what;
    EXPECT_EQ(cluster_of(run.clusters, "www.site1.org/p8"), "a-mirror1.net/v3") << what;
    EXPECT_EQ(cluster_of(run.clusters, "twin.org/b"), "twin.org/a") << what;
    EXPECT_EQ(cluster_of(run.clusters, "other.org/u3"), "") << what;
  }
  // Broder's rule joins the chain end to end through pairs of neighbours, without a pair of its ends.
  const Found minhash = distributed(GetParam(), pages, PairRules{});
  EXPECT_EQ(cluster_of(minhash.clusters, "chain.org/c119"), "chain.org/c100");
  for (const auto& p : minhash.pairs) EXPECT_FALSE(p.page_a == "chain.org/c100" && p.page_b == "chain.org/c119");
}

TEST_P(Clusters, CappedBucketsStillJoinTheirNearIdenticalPages) {
  const auto pages = make_pages();
  PairRules rules;
  rules.max_bucket = 3;  // every family's buckets are capped: no family pair is compared
  const Found run = distributed(GetParam(), pages, rules);
  ASSERT_GT(run.caps.buckets, 0u);
  for (const auto& p : run.pairs) EXPECT_EQ(p.page_a.find("site"), std::string::npos) << p.page_a;
  expect_same(run.clusters, serial_clusters(pages, PairRules{}), "capped");
  EXPECT_EQ(run.caps.unlinked, 0u);
}

// A page with hand-made supershingles (6, the seed's m') and an all-zero simhash, so every pair is
// C-similar and only the supershingles decide.
SketchedPage sketched(const std::string& key, const std::vector<std::uint64_t>& super) {
  const Digest id = sha1(key);
  return {id, {key}, Sketch{super, std::vector<std::uint64_t>(6, 0)}, {}};
}

// Two buckets over the cap, each led by 20 pages that share only that bucket (B-similarity 1 with
// every page: near-duplicates of none), then the pair p, q, which shares both buckets and nothing
// else: B-similarity 2, a near-duplicate pair under Henzinger's rule whose every shared bucket is
// capped. Leaders taken in key order were all used up by the 40 loners, and the pair was in no
// cluster; grouping each capped bucket's members by another supershingle they share finds it.
std::vector<SketchedPage> capped_pair_behind_loners() {
  std::vector<SketchedPage> pages;
  std::uint64_t unique = 1000;
  for (int i = 0; i < 20; ++i) {
    const std::string n = std::to_string(10 + i);
    pages.push_back(sketched("a.org/x" + n, {7, unique++, unique++, unique++, unique++, unique++}));
    pages.push_back(sketched("a.org/y" + n, {unique++, 8, unique++, unique++, unique++, unique++}));
  }
  pages.push_back(sketched("b.org/p", {7, 8, 11, 12, 13, 14}));
  pages.push_back(sketched("b.org/q", {7, 8, 21, 22, 23, 24}));
  return pages;
}

TEST_P(Clusters, CappedBucketsJoinEveryBSimilarPairBehindLoners) {
  const auto pages = capped_pair_behind_loners();
  for (const Method method : {Method::MinHash, Method::Combined}) {
    PairRules rules;
    rules.method = method;
    rules.max_bucket = 3;
    const std::string what = "method " + std::to_string(static_cast<int>(method));
    const Found run = distributed(GetParam(), pages, rules);
    EXPECT_EQ(run.caps.buckets, 2u) << what;
    EXPECT_TRUE(run.pairs.empty()) << what;
    ASSERT_EQ(run.clusters.rows.size(), 2u) << what;
    EXPECT_EQ(run.clusters.rows[0].page, "b.org/p") << what;
    EXPECT_EQ(run.clusters.rows[1].page, "b.org/q") << what;
    EXPECT_EQ(run.clusters.rows[1].cluster, "b.org/p") << what;
    expect_same(run.clusters, serial_clusters(pages, rules), what);
    EXPECT_EQ(run.caps.unlinked, 0u) << what;
  }
}

// Three capped buckets led by loners; p, q agree at positions 0, 1, 2 and r, s at 0 and 1 only. At
// least 3 agreeing supershingles (t = 3: the members grouped by the 10 pairs of other positions)
// join p and q alone; at least 2 join all four (p and r agree at 0 and 1).
TEST_P(Clusters, CappedBucketsGroupByEveryChoiceOfTheOtherPositions) {
  std::vector<SketchedPage> pages;
  std::uint64_t unique = 1000;
  const auto fresh = [&] { return unique++; };
  for (int i = 0; i < 20; ++i) {
    const std::string n = std::to_string(10 + i);
    pages.push_back(sketched("a.org/x" + n, {7, fresh(), fresh(), fresh(), fresh(), fresh()}));
    pages.push_back(sketched("a.org/y" + n, {fresh(), 8, fresh(), fresh(), fresh(), fresh()}));
    pages.push_back(sketched("a.org/z" + n, {fresh(), fresh(), 9, fresh(), fresh(), fresh()}));
  }
  pages.push_back(sketched("b.org/p", {7, 8, 9, 12, 13, 14}));
  pages.push_back(sketched("b.org/q", {7, 8, 9, 22, 23, 24}));
  pages.push_back(sketched("b.org/r", {7, 8, 31, 32, 33, 34}));
  pages.push_back(sketched("b.org/s", {7, 8, 41, 42, 43, 44}));
  for (const std::uint32_t t : {3u, 2u}) {
    PairRules rules;
    rules.min_b_similarity = t;
    rules.max_bucket = 3;
    const std::string what = "t = " + std::to_string(t);
    const Found run = distributed(GetParam(), pages, rules);
    EXPECT_EQ(run.caps.buckets, 3u) << what;
    expect_same(run.clusters, serial_clusters(pages, rules), what);
    EXPECT_EQ(cluster_of(run.clusters, "b.org/q"), "b.org/p") << what;
    EXPECT_EQ(cluster_of(run.clusters, "b.org/s"), t == 3 ? "" : "b.org/p") << what;
    EXPECT_EQ(cluster_of(run.clusters, "a.org/x10"), "") << what;
    EXPECT_EQ(run.clusters.rows.size(), t == 3 ? 2u : 4u) << what;
  }
}

// Rounds of 64 bytes carry one record each (a record larger than a round still goes through): every
// exchange — the identity sets, the buckets, the forests gathered on rank 0 for the join, the roots
// sent back and the clusters' pages — takes many rounds, and the clusters are still the serial
// reference's, for every method, and with capped buckets under Broder's rule (where capped buckets
// join every B-similar pair; the other methods' capped buckets go through leaders).
TEST_P(Clusters, TinyRoundsGiveTheSerialReference) {
  const auto pages = make_pages();
  struct Case {
    Method method;
    std::uint64_t max_bucket;
  };
  for (const Case c : {Case{Method::MinHash, 1000}, Case{Method::SimHash, 1000}, Case{Method::Combined, 1000},
                       Case{Method::MinHash, 3}}) {
    PairRules rules;
    rules.method = c.method;
    rules.max_bucket = c.max_bucket;
    const std::string what =
        "method " + std::to_string(static_cast<int>(c.method)) + " cap " + std::to_string(c.max_bucket);
    const Found run = distributed(GetParam(), pages, rules, 64);
    if (GetParam() > 1) {
      EXPECT_GT(run.rounds, 50u) << what;
    }
    PairRules uncapped = rules;
    uncapped.max_bucket = 1000;
    const ClusterSet want = serial_clusters(pages, uncapped);
    expect_same(run.clusters, want, what);
    // The pairs, each with both similarities: all of the reference's when no bucket is capped, else
    // those a bucket under the cap shares.
    std::size_t matched = 0;
    for (const PairRow& p : run.pairs) {
      const auto at = std::find_if(want.pairs.begin(), want.pairs.end(), [&](const PairRow& w) {
        return w.page_a == p.page_a && w.page_b == p.page_b && w.b_sim == p.b_sim && w.c_sim == p.c_sim;
      });
      EXPECT_NE(at, want.pairs.end()) << what << ": " << p.page_a << " " << p.page_b;
      matched += at != want.pairs.end();
    }
    EXPECT_EQ(matched, run.pairs.size()) << what;
    if (c.max_bucket == 1000) {
      EXPECT_EQ(run.pairs.size(), want.pairs.size()) << what;
    }
    EXPECT_EQ(cluster_of(run.clusters, "www.site1.org/p8"), "a-mirror1.net/v3") << what;
    EXPECT_EQ(cluster_of(run.clusters, "twin.org/b"), "twin.org/a") << what;
  }
}

// A bucket's owner holds each member's sketch once, however many of its buckets hold the member:
// the entries carry set ids, and the sketches are fetched once per rank (before, every entry
// carried its set's whole sketch, m′ copies of it: with 12 supershingles and 4096-bit simhashes
// the busiest rank's buckets held 2,000 bytes and more per identity set of the job, at 1–4 ranks).
// Now they hold at most every set's sketch once plus 32 bytes per bucket entry, with the clusters
// and pairs unchanged.
TEST_P(Clusters, BucketsHoldEachSketchOncePerRank) {
  SketchParams params;
  params.m_prime = 12;
  params.b = 4096;
  params.pieces = 64;
  const auto pages = make_pages(params);
  std::map<Digest, std::uint64_t> sets;  // held bytes of each identity set's first page
  for (const auto& p : pages) sets.try_emplace(p.identity, held_bytes(p));
  std::uint64_t sets_bytes = 0;
  for (const auto& kv : sets) sets_bytes += kv.second;
  const std::uint64_t entries = sets.size() * params.m_prime;
  const Found run = distributed(GetParam(), pages, PairRules{});
  EXPECT_GT(run.bucket_bytes, 0u);
  EXPECT_LE(run.bucket_bytes, sets_bytes + 32 * entries);
  EXPECT_GT(run.fetch_bytes, 0u);
  const ClusterSet want = serial_clusters(pages, PairRules{});
  expect_same(run.clusters, want, "12 supershingles");
  ASSERT_EQ(run.pairs.size(), want.pairs.size());
  for (std::size_t i = 0; i < want.pairs.size(); ++i) {
    EXPECT_EQ(run.pairs[i].page_a, want.pairs[i].page_a);
    EXPECT_EQ(run.pairs[i].page_b, want.pairs[i].page_b);
    EXPECT_EQ(run.pairs[i].b_sim, want.pairs[i].b_sim);
    EXPECT_EQ(run.pairs[i].c_sim, want.pairs[i].c_sim);
  }
}

// The size of the bucket that keeps each pair (its first agreeing supershingle; none is capped
// here), from the pages alone.
std::map<std::pair<std::string, std::string>, std::uint64_t> keeping_bucket_sizes(const std::vector<SketchedPage>& all,
                                                                                  const std::vector<PairRow>& pairs) {
  std::map<std::string, Sketch> by_key;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::set<Digest>> buckets;
  for (const auto& p : all) {
    by_key[p.pages[0]] = p.sketch;
    for (std::uint32_t j = 0; j < p.sketch.super.size(); ++j) buckets[{j, p.sketch.super[j]}].insert(p.identity);
  }
  std::map<std::pair<std::string, std::string>, std::uint64_t> out;
  for (const auto& p : pairs) {
    const Sketch& a = by_key.at(p.page_a);
    const Sketch& b = by_key.at(p.page_b);
    std::uint32_t j = 0;
    while (a.super[j] != b.super[j]) ++j;
    out[{p.page_a, p.page_b}] = buckets.at({j, a.super[j]}).size();
  }
  return out;
}

TEST_P(Clusters, MaxPairsKeepsTheSmallestBucketsPairsAndTheClustersComplete) {
  const auto pages = make_pages();
  const Found all = distributed(GetParam(), pages, PairRules{});
  const auto size_of = keeping_bucket_sizes(pages, all.pairs);
  // The reference: the largest bucket size whose pairs, with every smaller bucket's, fit in 60.
  std::map<std::uint64_t, std::uint64_t> by_size;
  for (const auto& [pair, n] : size_of) ++by_size[n];
  std::uint64_t kept = 0, limit = 0;
  for (const auto& [n, count] : by_size) {
    if (kept + count > 60) break;
    kept += count;
    limit = n;
  }
  ASSERT_GT(kept, 0u);
  ASSERT_LT(kept, all.pairs.size());
  std::vector<PairRow> want;
  for (const auto& p : all.pairs)
    if (size_of.at({p.page_a, p.page_b}) <= limit) want.push_back(p);

  PairRules rules;
  rules.max_pairs = 60;
  const Found bounded = distributed(GetParam(), pages, rules);
  ASSERT_EQ(bounded.pairs.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(bounded.pairs[i].page_a, want[i].page_a);
    EXPECT_EQ(bounded.pairs[i].page_b, want[i].page_b);
  }
  EXPECT_EQ(bounded.caps.pairs_not_kept, all.pairs.size() - want.size());
  expect_same(bounded.clusters, all.clusters, "max-pairs");
}

INSTANTIATE_TEST_SUITE_P(Ranks, Clusters, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::neardup
