// Identity sets and candidate pairs on the thread transport (1–4 ranks) against a serial
// reference written here: every pair from every uncapped bucket, filtered and deduplicated, and
// the capped buckets counted. Pairs are neither lost nor duplicated, and identical for any rank count.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>

#include "crd/comm/local_transport.hpp"
#include "crd/neardup/candidates.hpp"
#include "site.hpp"
#include "support/sketched_pages.hpp"

namespace crd::neardup {
namespace {

// Five families of eight near-copies (a word or two changed), unrelated pages, and exact copies
// under other hosts (identity sets).
std::vector<SketchedPage> make_pages() {
  std::vector<SketchedPage> pages;
  const auto add = [&](const std::string& key, const std::string& text) {
    pages.push_back(crd::testing::sketched_page(key, text));
  };
  for (int f = 0; f < 5; ++f) {
    std::string base;
    for (int i = 0; i < 400; ++i) base += "f" + std::to_string(f) + "w" + std::to_string(i * 7 % 131) + " ";
    for (int v = 0; v < 8; ++v) {
      std::string text = base;
      if (v > 0) text += "variant" + std::to_string(v) + " extra" + std::to_string(v * v);
      add("www.site" + std::to_string(f) + ".org/v" + std::to_string(v), text);
      if (v == 3) add("zmirror" + std::to_string(f) + ".net/v3", text);
    }
  }
  for (int u = 0; u < 12; ++u) {
    std::string text;
    for (int i = 0; i < 200; ++i) text += "u" + std::to_string(u) + "t" + std::to_string(i) + " ";
    add("other.org/u" + std::to_string(u), text);
  }
  return pages;
}

struct Reference {
  std::vector<PairRow> pairs;
  BucketCaps caps;
};

Reference serial_reference(const std::vector<SketchedPage>& all, const PairRules& rules) {
  std::map<Digest, std::vector<std::string>> members;
  std::map<Digest, Sketch> sketches;
  for (const auto& p : all) {
    members[p.identity].push_back(p.pages[0]);
    sketches[p.identity] = p.sketch;
  }
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::vector<Digest>> buckets;
  for (auto& [id, pages] : members) {
    std::sort(pages.begin(), pages.end());
    const Sketch& s = sketches[id];
    if (rules.method == Method::SimHash) {
      for (std::uint32_t p = 0; p < 12; ++p) buckets[{p, simhash_piece(s, p, 32)}].push_back(id);
    } else {
      for (std::uint32_t j = 0; j < 6; ++j) buckets[{j, s.super[j]}].push_back(id);
    }
  }
  Reference ref;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& [key, ids] : buckets) {
    const std::uint64_t n = ids.size();
    if (n < 2) continue;
    if (n > rules.max_bucket) {
      ++ref.caps.buckets, ref.caps.pages += n, ref.caps.pairs += n * (n - 1) / 2;
      continue;
    }
    for (const Digest& x : ids) {
      for (const Digest& y : ids) {
        std::string a = members[x][0], b = members[y][0];
        if (!(a < b)) continue;
        const auto bs = b_similarity(sketches[x], sketches[y]);
        const auto cs = c_similarity(sketches[x], sketches[y]);
        if (!accepted(rules, bs, cs) || !seen.insert({a, b}).second) continue;
        ref.pairs.push_back({a, b, bs, cs, static_cast<std::uint8_t>(same_site(a, b))});
      }
    }
  }
  std::sort(ref.pairs.begin(), ref.pairs.end(), FieldLess{});
  return ref;
}

struct Found {
  std::vector<PairRow> pairs;
  std::vector<IdentityRow> identical;
  BucketCaps caps;
};

Found distributed(int nranks, const std::vector<SketchedPage>& all, const PairRules& rules) {
  Found run;
  std::mutex lock;
  comm::run_local(nranks, [&](comm::Transport& t) {
    std::vector<SketchedPage> mine;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (static_cast<int>(i % static_cast<std::size_t>(t.size())) == t.rank()) mine.push_back(all[i]);
    const shuffle::ShuffleConfig config{4096};  // small rounds: several exchange rounds
    const auto sets = group_identical(t, std::move(mine), config);
    BucketCaps caps;
    auto pairs = find_pairs(t, sets, rules, config, caps);
    const auto identical = identity_rows(sets);
    std::lock_guard guard(lock);
    run.pairs.insert(run.pairs.end(), pairs.begin(), pairs.end());
    run.identical.insert(run.identical.end(), identical.begin(), identical.end());
    run.caps.buckets += caps.buckets, run.caps.pages += caps.pages, run.caps.pairs += caps.pairs;
  });
  std::sort(run.pairs.begin(), run.pairs.end(), FieldLess{});
  std::sort(run.identical.begin(), run.identical.end(), FieldLess{});
  return run;
}

bool same_pairs(const std::vector<PairRow>& a, const std::vector<PairRow>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].page_a != b[i].page_a || a[i].page_b != b[i].page_b || a[i].b_sim != b[i].b_sim ||
        a[i].c_sim != b[i].c_sim || a[i].same_site != b[i].same_site)
      return false;
  }
  return true;
}

class Candidates : public ::testing::TestWithParam<int> {};

TEST_P(Candidates, EveryMethodFindsExactlyTheReferencePairs) {
  const auto pages = make_pages();
  for (const Method method : {Method::MinHash, Method::SimHash, Method::Combined}) {
    PairRules rules;
    rules.method = method;
    const Reference ref = serial_reference(pages, rules);
    const Found run = distributed(GetParam(), pages, rules);
    EXPECT_TRUE(same_pairs(run.pairs, ref.pairs)) << "method " << static_cast<int>(method) << ": " << run.pairs.size()
                                                  << " pairs, reference " << ref.pairs.size();
    EXPECT_EQ(run.caps.buckets, 0u);
    // The families are found, within themselves only; the unrelated pages pair with nothing.
    ASSERT_FALSE(run.pairs.empty());
    for (const auto& p : run.pairs) {
      EXPECT_EQ(p.page_a.substr(0, 9), p.page_b.substr(0, 9)) << p.page_a << " " << p.page_b;
      EXPECT_NE(p.page_a.substr(0, 5), "other");
      EXPECT_EQ(p.same_site, 1u);
    }
  }
}

TEST_P(Candidates, PagesWithIdenticalTokensAreOneSetComparedOnce) {
  const Found run = distributed(GetParam(), make_pages(), PairRules{});
  ASSERT_EQ(run.identical.size(), 5u);
  EXPECT_EQ(run.identical[0].page, "zmirror0.net/v3");
  EXPECT_EQ(run.identical[0].representative, "www.site0.org/v3");
  for (const auto& p : run.pairs) EXPECT_EQ(p.page_a.find("mirror"), std::string::npos) << p.page_a;
  for (const auto& p : run.pairs) EXPECT_EQ(p.page_b.find("mirror"), std::string::npos) << p.page_b;
}

TEST_P(Candidates, BucketsOverTheCapAreCountedNotCompared) {
  const auto pages = make_pages();
  PairRules rules;
  rules.max_bucket = 5;
  const Reference ref = serial_reference(pages, rules);
  const Found run = distributed(GetParam(), pages, rules);
  EXPECT_TRUE(same_pairs(run.pairs, ref.pairs)) << run.pairs.size() << " vs " << ref.pairs.size();
  ASSERT_GT(ref.caps.buckets, 0u);
  EXPECT_EQ(run.caps.buckets, ref.caps.buckets);
  EXPECT_EQ(run.caps.pages, ref.caps.pages);
  EXPECT_EQ(run.caps.pairs, ref.caps.pairs);
  const Found uncapped = distributed(GetParam(), pages, PairRules{});
  EXPECT_LT(run.pairs.size(), uncapped.pairs.size());
}

INSTANTIATE_TEST_SUITE_P(Ranks, Candidates, ::testing::Values(1, 2, 3, 4));

TEST(Site, IsTheSeedsRule) {
  EXPECT_EQ(site_of("www.cs.berkeley.edu/index.html"), "cs.berkeley.edu");
  EXPECT_EQ(site_of("berkeley.edu/x"), "berkeley.edu");
  EXPECT_EQ(site_of("localhost"), "localhost");
  EXPECT_EQ(site_of("www.a.org:8080/x"), "a.org");
  EXPECT_TRUE(same_site("www.a.org/x", "news.a.org/y"));
  EXPECT_FALSE(same_site("www.a.org/x", "www.b.org/x"));
}

}  // namespace
}  // namespace crd::neardup
