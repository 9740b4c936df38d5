// The whole quilt search on the thread transport at 1–4 ranks: a page stitched from patches of
// five others is found with exactly those five, with the grams each covered; a copy of one page
// is not a quilt; records of one URL on several ranks are one document; φ and the foreign rule
// act on the cover; the sweep's counts; and identical rows for any rank count, also when every
// shuffle round carries a single record (round_bytes = 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "crd/base/error.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/quilts/find_quilts.hpp"
#include "crd/quilts/grams.hpp"
#include "crd/quilts/site.hpp"
#include "crd/text/fingerprint.hpp"
#include "stages.hpp"

namespace crd::quilts {
namespace {

std::string words(const std::string& prefix, int from, int to) {
  std::string out;
  for (int i = from; i < to; ++i) out += prefix + std::to_string(i) + " ";
  return out;
}

struct Page {
  std::string url;
  std::string text;
};

// Sources s0..s5 (200 words each, s0 on the quilt's domain); the quilt: 40 words of each of s0..s4;
// a copy of 100 words of s5 (one source); an unrelated page.
std::vector<Page> corpus() {
  std::vector<Page> pages;
  for (int s = 0; s < 6; ++s)
    pages.push_back({(s == 0 ? std::string("blog.q.example") : "www.s" + std::to_string(s) + ".example") + "/src" +
                         std::to_string(s),
                     words("s" + std::to_string(s) + "w", 0, 200)});
  std::string quilt;
  for (int s = 0; s < 5; ++s) quilt += words("s" + std::to_string(s) + "w", 40 * s, 40 * s + 40);
  pages.push_back({"www.q.example/quilt", quilt});
  pages.push_back({"copy.example/one", words("s5w", 50, 150)});
  pages.push_back({"other.example/alone", words("alone", 0, 300)});
  return pages;
}

Document document(const Page& p, const QuiltParams& params) {
  auto g = page_grams("<p>" + p.text + "</p>", "h", params);
  return {text::term_token(p.url), p.url, server_id(p.url, params.foreign), 0, std::move(g.grams)};
}

struct Sorted {
  std::vector<PageRow> pages;
  std::vector<SourceRow> sources;
  std::vector<SweepRow> sweep;
  std::uint64_t rounds = 0;
};

// Every page read on rank i % n; s0 read a second time on the last rank (same URL, same text).
Sorted run(int nranks, const QuiltParams& params, std::size_t round_bytes, std::uint32_t passes = 1) {
  const auto pages = corpus();
  Sorted all;
  std::mutex mu;
  comm::run_local(nranks, [&](comm::Transport& t) {
    std::vector<Document> local;
    for (std::size_t i = 0; i < pages.size(); ++i)
      if (static_cast<int>(i) % nranks == t.rank()) local.push_back(document(pages[i], params));
    if (t.rank() == nranks - 1) local.push_back(document(pages[0], params));
    shuffle::ExchangeStats stats;
    MemoryPlan plan;
    plan.passes = passes;
    auto r = find_quilts(t, std::move(local), params, {round_bytes, &stats}, plan);
    EXPECT_EQ(r.passes, passes);
    std::lock_guard lock(mu);
    all.pages.insert(all.pages.end(), r.pages.begin(), r.pages.end());
    all.sources.insert(all.sources.end(), r.sources.begin(), r.sources.end());
    if (t.rank() == 0) all.sweep = r.sweep;
    all.rounds += stats.rounds;
  });
  std::sort(all.pages.begin(), all.pages.end(), FieldLess{});
  std::sort(all.sources.begin(), all.sources.end(), FieldLess{});
  return all;
}

void expect_same_pages(const Sorted& s, const Sorted& base) {
  ASSERT_EQ(s.pages.size(), base.pages.size());
  for (std::size_t i = 0; i < s.pages.size(); ++i) {
    EXPECT_EQ(s.pages[i].url, base.pages[i].url);
    EXPECT_EQ(s.pages[i].grams, base.pages[i].grams);
    EXPECT_EQ(s.pages[i].patch_grams, base.pages[i].patch_grams);
    EXPECT_EQ(s.pages[i].sources, base.pages[i].sources);
    EXPECT_EQ(s.pages[i].quilted, base.pages[i].quilted);
  }
}

const PageRow& row(const Sorted& s, const std::string& url) {
  const auto it = std::find_if(s.pages.begin(), s.pages.end(), [&](const PageRow& p) { return p.url == url; });
  EXPECT_NE(it, s.pages.end()) << url;
  return *it;
}

using SourceList = std::vector<std::pair<std::string, std::uint64_t>>;
SourceList sources_of(const Sorted& s, const std::string& page) {
  SourceList out;
  for (const auto& r : s.sources)
    if (r.page == page) out.push_back({r.source, r.grams_covered});
  return out;
}

TEST(FindQuilts, TheQuiltAndExactlyItsSources) {
  const auto s = run(1, QuiltParams{}, std::size_t{64} << 20);
  ASSERT_EQ(s.pages.size(), 9u);  // s0's two records are one document
  const auto& q = row(s, "www.q.example/quilt");
  EXPECT_EQ(q.grams, 196u);        // 200 words
  EXPECT_EQ(q.patch_grams, 180u);  // 36 per patch; the 16 grams across patch seams are its own
  EXPECT_DOUBLE_EQ(q.patchfrac, 180.0 / 196.0);
  EXPECT_EQ(q.sources, 5u);
  EXPECT_EQ(q.quilted, 1);
  const SourceList want{{"blog.q.example/src0", 36},
                        {"www.s1.example/src1", 36},
                        {"www.s2.example/src2", 36},
                        {"www.s3.example/src3", 36},
                        {"www.s4.example/src4", 36}};
  EXPECT_EQ(sources_of(s, "www.q.example/quilt"), want);
  // The one-source copy: every gram a patch gram, but one source: not a quilt.
  const auto& copy = row(s, "copy.example/one");
  EXPECT_EQ(copy.patch_grams, 96u);
  EXPECT_EQ(copy.sources, 1u);
  EXPECT_EQ(copy.quilted, 0);
  // s0 read twice counts its grams once: only the 36 the quilt took are patch grams.
  EXPECT_EQ(row(s, "blog.q.example/src0").patch_grams, 36u);
  EXPECT_EQ(row(s, "other.example/alone").patch_grams, 0u);
  std::uint64_t quilted = 0;
  for (const auto& p : s.pages) quilted += p.quilted;
  EXPECT_EQ(quilted, 1u);
  EXPECT_EQ(s.sources.size(), 5u);  // sources are listed for quilted pages only
}

TEST(FindQuilts, SameRowsAtOneToFourRanksAndInOneRecordRounds) {
  QuiltParams p;
  p.sweep_c = {1, 6};
  const auto base = run(1, p, std::size_t{64} << 20);
  for (int n = 1; n <= 4; ++n)
    for (const std::size_t round : {std::size_t{1}, std::size_t{64} << 20}) {
      SCOPED_TRACE(testing::Message() << n << " ranks, round_bytes " << round);
      const auto s = run(n, p, round);
      expect_same_pages(s, base);
      ASSERT_EQ(s.sources.size(), base.sources.size());
      for (std::size_t i = 0; i < s.sources.size(); ++i) {
        EXPECT_EQ(s.sources[i].page, base.sources[i].page);
        EXPECT_EQ(s.sources[i].source, base.sources[i].source);
        EXPECT_EQ(s.sources[i].grams_covered, base.sources[i].grams_covered);
      }
      ASSERT_EQ(s.sweep.size(), base.sweep.size());
      for (std::size_t i = 0; i < s.sweep.size(); ++i) EXPECT_EQ(s.sweep[i].quilted, base.sweep[i].quilted);
      // One record per round: at least one round per posting sent to another rank.
      if (n > 1 && round == 1) {
        EXPECT_GT(s.rounds, 100u);
      }
    }
}

TEST(FindQuilts, SweepCountsLikeTable1) {
  QuiltParams p;
  p.sweep_m = {2};
  p.sweep_c = {1, 6};
  p.sweep_theta = {0.95};
  const auto s = run(2, p, 4096);
  // m × c × θ ascending: m {2, 50}, c {1, 4, 6}, θ {0.5, 0.95}.
  ASSERT_EQ(s.sweep.size(), 12u);
  const std::uint64_t want[] = {2, 1, 1, 0, 0, 0,   // m = 2: quilt and copy at c = 1, θ 0.5; copy alone at θ 0.95
                                2, 1, 1, 0, 0, 0};  // m = 50: the same (no gram is in more than 2 documents)
  for (std::size_t i = 0; i < 12; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(s.sweep[i].quilted, want[i]);
    EXPECT_EQ(s.sweep[i].pages, 9u);
    EXPECT_EQ(s.sweep[i].k, 5u);
  }
  EXPECT_EQ(s.sweep[2].m, 2u);
  EXPECT_EQ(s.sweep[2].c, 4u);
  EXPECT_DOUBLE_EQ(s.sweep[2].theta, 0.5);
  EXPECT_DOUBLE_EQ(s.sweep[2].mean_sources, 5.0);
  EXPECT_DOUBLE_EQ(s.sweep[2].percent, 100.0 / 9.0);
  EXPECT_DOUBLE_EQ(s.sweep[0].mean_sources, 3.0);  // (5 + 1) / 2
}

TEST(FindQuilts, MinSourceShareAndForeignSourcesChangeTheCover) {
  QuiltParams p;
  p.min_source_share = 0.2;  // 36 ≥ 0.2 · 180: all five stay
  EXPECT_EQ(row(run(2, p, 4096), "www.q.example/quilt").sources, 5u);
  p.min_source_share = 0.21;
  const auto none = run(2, p, 4096);
  EXPECT_EQ(row(none, "www.q.example/quilt").sources, 0u);
  EXPECT_EQ(row(none, "www.q.example/quilt").quilted, 0);
  p.min_source_share = 0.0;
  p.foreign = Foreign::Domain;  // blog.q.example and www.q.example: one registrable domain, q.example
  const auto foreign = run(3, p, 4096);
  EXPECT_EQ(row(foreign, "www.q.example/quilt").sources, 4u);
  EXPECT_EQ(row(foreign, "www.q.example/quilt").patch_grams, 180u);
  const SourceList want{{"www.s1.example/src1", 36},
                        {"www.s2.example/src2", 36},
                        {"www.s3.example/src3", 36},
                        {"www.s4.example/src4", 36}};
  EXPECT_EQ(sources_of(foreign, "www.q.example/quilt"), want);
  p.foreign = Foreign::Host;  // other hosts: blog.q.example counts again
  EXPECT_EQ(row(run(3, p, 4096), "www.q.example/quilt").sources, 5u);
}

TEST(FindQuilts, TwoUrlsWithOneIdAreDroppedAndCounted) {
  comm::run_local(2, [&](comm::Transport& t) {
    std::vector<Document> local;
    local.push_back({42, t.rank() == 0 ? "a.example/x" : "b.example/y", 0, 0, {1, 2, 3}});
    local.push_back(
        {43 + static_cast<std::uint64_t>(t.rank()), "c.example/" + std::to_string(t.rank()), 0, 0, {1, 2, 3}});
    auto r = find_quilts(t, std::move(local), QuiltParams{}, {1, nullptr});
    const std::uint64_t collided = comm::sum(t, r.counters.get("quilts.documents.url_hash_collision"));
    const std::uint64_t docs = comm::sum(t, r.counters.get("quilts.documents"));
    EXPECT_EQ(collided, 1u);
    EXPECT_EQ(docs, 2u);
    for (const auto& p : r.pages) {
      EXPECT_NE(p.url, "a.example/x");
      EXPECT_EQ(p.patch_grams, 3u);  // the two c.example pages share grams 1..3; id 42's are not counted
    }
  });
}

// Passes over the gram space (--memory): the same rows for 1, 2, 3 and 7 passes at 1–3 ranks,
// also in one-record rounds; the quilt keeps exactly its five sources and what each covered.
TEST(FindQuilts, PassesOverTheGramSpaceGiveTheSameRows) {
  QuiltParams p;
  p.sweep_m = {2};
  p.sweep_c = {1, 6};
  const auto base = run(1, p, std::size_t{64} << 20);
  for (const std::uint32_t passes : {2u, 3u, 7u})
    for (int n = 1; n <= 3; ++n) {
      SCOPED_TRACE(testing::Message() << passes << " passes, " << n << " ranks");
      const auto s = run(n, p, n == 2 ? 1 : 4096, passes);
      expect_same_pages(s, base);
      const SourceList want{{"blog.q.example/src0", 36},
                            {"www.s1.example/src1", 36},
                            {"www.s2.example/src2", 36},
                            {"www.s3.example/src3", 36},
                            {"www.s4.example/src4", 36}};
      EXPECT_EQ(sources_of(s, "www.q.example/quilt"), want);
      ASSERT_EQ(s.sweep.size(), base.sweep.size());
      for (std::size_t i = 0; i < s.sweep.size(); ++i) EXPECT_EQ(s.sweep[i].quilted, base.sweep[i].quilted);
    }
}

// --memory's checks of the job's budget: each step's projected peak, with what the caller holds,
// fails on every rank alike and names the step; the passes divide the grams (kPassBytesPerGram
// each, twice over) beside the documents and what the caller holds.
TEST(FindQuilts, MemoryChecksNameTheirSteps) {
  const auto local_docs = [](comm::Transport& t) {
    std::vector<Document> local;
    for (std::size_t i = 0; i < corpus().size(); ++i)
      if (static_cast<int>(i) % 2 == t.rank()) local.push_back(document(corpus()[i], QuiltParams{}));
    return local;
  };
  // A budget with room for nothing beside the fixed buffers (2 × 4 KiB): the first check fails.
  const auto failing_step = [&](std::uint32_t passes) {
    std::mutex m;
    std::vector<std::string> messages;
    comm::run_local(2, [&](comm::Transport& t) {
      const shuffle::MemoryBudget budget(8192 + 1, 4096, t.size());
      try {
        find_quilts(t, local_docs(t), QuiltParams{}, {4096, nullptr}, MemoryPlan{&budget, 0, passes});
        ADD_FAILURE() << "no error";
      } catch (const FatalError& e) {
        std::lock_guard lock(m);
        messages.push_back(e.what());
      }
    });
    EXPECT_EQ(messages.size(), 2u);
    EXPECT_EQ(messages.front(), messages.back());  // agreed
    return messages.front();
  };
  EXPECT_NE(failing_step(2).find(": grouping the holder classes needs about "), std::string::npos);
  EXPECT_NE(failing_step(1).find(": sending the holder classes needs about "), std::string::npos);

  // Passes from the budget: what the caller holds leaves less room for the grams, so the same
  // budget takes more passes, and the pages found are the same.
  std::uint64_t docs_bytes = 0, grams = 0;
  for (const auto& page : corpus()) {
    const Document d = document(page, QuiltParams{});
    docs_bytes += held_bytes(d);
    grams += d.grams.size();
  }
  const std::uint64_t held = std::uint64_t{1} << 30;
  const std::uint64_t room = kPassBytesPerGram * grams / 2;  // a quarter of all grams' 2 × kPassBytesPerGram
  comm::run_local(2, [&](comm::Transport& t) {
    const shuffle::MemoryBudget budget(8192 + held + docs_bytes + room, 4096, t.size());
    const auto roomy = find_quilts(t, local_docs(t), QuiltParams{}, {4096, nullptr}, MemoryPlan{&budget, 0});
    const auto tight = find_quilts(t, local_docs(t), QuiltParams{}, {4096, nullptr}, MemoryPlan{&budget, held});
    EXPECT_EQ(roomy.passes, 1u);
    EXPECT_GT(tight.passes, 1u);
    EXPECT_LE(tight.passes, 4u);
    const auto urls = [](std::vector<PageRow> pages) {
      std::sort(pages.begin(), pages.end(), FieldLess{});
      std::vector<std::string> out;
      for (const auto& p : pages) out.push_back(p.url + (p.quilted ? " quilted" : ""));
      return out;
    };
    EXPECT_EQ(urls(tight.pages), urls(roomy.pages));
  });
}

// Stages 5 and 6 on hand-made gram sets at 1–3 ranks, one record per shuffle round too: a passage
// copied into the same documents is one class weighing its grams, whatever ranks its grams and
// holders lie on; each rank receives, whole, exactly the classes holding a document it owns.
TEST(QuiltStages, HolderClassesAndTheirRoutes) {
  // Documents 0..3 and grams spread over the ranks by their leading bits (owner_of_key).
  const auto doc = [](std::uint64_t i) { return (i << 62) | (10 + i); };
  const auto gram = [](std::uint64_t g) { return (g << 58) | g; };  // ascending with g < 64
  const auto grams = [&](std::vector<std::uint64_t> gs) {
    for (auto& g : gs) g = gram(g);
    return gs;
  };
  // Grams 1..10 in documents 0 and 1; 20..24 in 0, 1, 2; 30 and 31 in 1, 2 (one class); 40 in 0
  // alone (no class); 50 in all four.
  const std::vector<std::pair<std::uint64_t, std::vector<std::uint64_t>>> sets{
      {doc(0), grams({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 21, 22, 23, 24, 40, 50})},
      {doc(1), grams({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 21, 22, 23, 24, 30, 31, 50})},
      {doc(2), grams({20, 21, 22, 23, 24, 30, 31, 50})},
      {doc(3), grams({50})}};
  struct Want {
    std::vector<std::uint64_t> holders;
    std::uint64_t first_gram, grams;
  };
  const std::vector<Want> want{{{doc(0), doc(1)}, gram(1), 10},
                               {{doc(0), doc(1), doc(2)}, gram(20), 5},
                               {{doc(1), doc(2)}, gram(30), 2},
                               {{doc(0), doc(1), doc(2), doc(3)}, gram(50), 1}};
  for (int n = 1; n <= 3; ++n)
    for (const std::size_t round : {std::size_t{1}, std::size_t{1} << 20}) {
      SCOPED_TRACE(testing::Message() << n << " ranks, round_bytes " << round);
      std::mutex mu;
      std::vector<HolderClass> all;
      std::map<int, std::vector<ClassMember>> received;
      comm::run_local(n, [&](comm::Transport& t) {
        std::vector<Document> local;
        for (std::size_t i = 0; i < sets.size(); ++i)
          if (static_cast<int>(i) % n == t.rank())
            local.push_back({sets[i].first, "d" + std::to_string(i), sets[i].first * 7, 0, sets[i].second});
        const shuffle::ShuffleConfig config{round, nullptr};
        const auto docs = own_documents(t, std::move(local), config);
        auto classes = holder_classes(t, patch_postings(t, docs, 50, config), config);
        auto members = classes_by_document(t, classes, config);
        std::lock_guard lock(mu);
        all.insert(all.end(), classes.begin(), classes.end());
        received[t.rank()] = std::move(members);
      });
      std::sort(all.begin(), all.end(),
                [](const HolderClass& a, const HolderClass& b) { return a.first_gram < b.first_gram; });
      ASSERT_EQ(all.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(all[i].holders, want[i].holders);
        EXPECT_EQ(all[i].first_gram, want[i].first_gram);
        EXPECT_EQ(all[i].grams, want[i].grams);
        std::vector<std::uint64_t> servers;
        for (const auto d : want[i].holders) servers.push_back(d * 7);
        EXPECT_EQ(all[i].servers, servers);
      }
      for (int r = 0; r < n; ++r) {
        std::vector<ClassMember> expect;
        for (const auto& w : want) {
          const bool mine =
              std::any_of(w.holders.begin(), w.holders.end(), [&](std::uint64_t d) { return owner_of_key(d, n) == r; });
          if (mine)
            for (const auto d : w.holders)
              expect.push_back({static_cast<std::uint32_t>(r), w.first_gram, d, d * 7, w.grams});
        }
        const auto& got = received[r];
        ASSERT_EQ(got.size(), expect.size()) << "rank " << r;
        for (std::size_t i = 0; i < got.size(); ++i) {
          EXPECT_EQ(got[i].rank, expect[i].rank);
          EXPECT_EQ(got[i].first_gram, expect[i].first_gram);
          EXPECT_EQ(got[i].doc, expect[i].doc);
          EXPECT_EQ(got[i].server, expect[i].server);
          EXPECT_EQ(got[i].grams, expect[i].grams);
        }
      }
    }
}

// A pass's grams are one range of each document's ascending set: the walk's slices of 1–7 and
// 1,000 passes partition every set, in order, and each gram lies in the slice its leading 32 bits
// scale onto (so the edges of the gram space — 0, 2^32 − 1, 2^64 − 1 — land in the first and last
// slices); a collided document has no grams in any pass.
TEST(QuiltStages, SliceWalkPartitionsEachSetByLeadingBits) {
  std::vector<std::uint64_t> edges{0, 1, 0xFFFFFFFFull, 0x100000000ull, ~std::uint64_t{0}, ~std::uint64_t{0} - 1};
  for (std::uint64_t c = 1; c <= 7; ++c) edges.push_back((((std::uint64_t{1} << 32) * 3 + c - 1) / c) << 32);
  std::vector<Document> docs(4);
  for (std::uint64_t i = 1; i <= 3000; ++i) docs[i % 3].grams.push_back(text::mix64(i));
  docs[0].grams.insert(docs[0].grams.end(), edges.begin(), edges.end());
  docs[3].grams = {5, 6};
  docs[3].collided = 1;
  for (auto& d : docs) {
    std::sort(d.grams.begin(), d.grams.end());
    d.grams.erase(std::unique(d.grams.begin(), d.grams.end()), d.grams.end());
  }
  for (const std::uint32_t count : {1u, 2u, 3u, 7u, 1000u}) {
    SCOPED_TRACE(count);
    SliceWalk walk(docs, count);
    std::vector<std::vector<std::uint64_t>> joined(docs.size());
    for (std::uint32_t index = 0; index < count; ++index) {
      const auto& ranges = walk.next();
      ASSERT_EQ(ranges.size(), docs.size());
      for (std::size_t d = 0; d < docs.size(); ++d)
        for (const auto g : ranges[d]) {
          EXPECT_EQ(count == 1 ? 0 : ((g >> 32) * count) >> 32, index) << g;
          joined[d].push_back(g);
        }
    }
    for (std::size_t d = 0; d < 3; ++d) EXPECT_EQ(joined[d], docs[d].grams);
    EXPECT_TRUE(joined[3].empty());
  }
}

// Stage 1 in batches: whatever the batch size (one document a batch, or all) and the ranks, each
// URL is one document at its owner with the union of its records' grams, and one id with two URLs
// is kept once, collided, under the smaller URL.
TEST(QuiltStages, OwnDocumentsInBatchesUnitesEachUrl) {
  // Records: URL u<i> with grams {i, 100 + i}, each of 0..9 read three times with one more gram;
  // ids 20 and 21 are one id (5000) for two URLs.
  std::vector<Document> records;
  for (std::uint64_t copy = 0; copy < 3; ++copy)
    for (std::uint64_t i = 0; i < 10; ++i)
      records.push_back({text::mix64(i), "u" + std::to_string(i), i, 0, {i, 100 + i, 1000 + copy}});
  records.push_back({5000, "b-url", 7, 0, {1, 2}});
  records.push_back({5000, "a-url", 7, 0, {3}});
  for (int n = 1; n <= 3; ++n)
    for (const std::uint64_t batch : {std::uint64_t{1}, std::uint64_t{8} << 20}) {
      SCOPED_TRACE(testing::Message() << n << " ranks, batch_bytes " << batch);
      std::mutex mu;
      std::vector<Document> all;
      comm::run_local(n, [&](comm::Transport& t) {
        std::vector<Document> local;
        for (std::size_t r = 0; r < records.size(); ++r)
          if (static_cast<int>(r) % n == t.rank()) local.push_back(records[r]);
        const auto owned = own_documents(t, std::move(local), {4096, nullptr}, batch);
        EXPECT_TRUE(std::is_sorted(owned.begin(), owned.end(),
                                   [](const Document& a, const Document& b) { return a.id < b.id; }));
        for (const auto& d : owned) EXPECT_EQ(owner_of_key(d.id, n), t.rank()) << d.url;
        std::lock_guard lock(mu);
        all.insert(all.end(), owned.begin(), owned.end());
      });
      std::sort(all.begin(), all.end(), [](const Document& a, const Document& b) { return a.id < b.id; });
      ASSERT_EQ(all.size(), 11u);
      for (const auto& d : all) {
        if (d.id == 5000) {
          EXPECT_EQ(d.url, "a-url");
          EXPECT_EQ(d.collided, 1);
          EXPECT_EQ(d.grams, (std::vector<std::uint64_t>{1, 2, 3}));
          continue;
        }
        const std::uint64_t i = std::stoull(d.url.substr(1));
        EXPECT_EQ(d.id, text::mix64(i));
        EXPECT_EQ(d.collided, 0);
        std::vector<std::uint64_t> want{i, 100 + i, 1000, 1001, 1002};
        std::sort(want.begin(), want.end());
        EXPECT_EQ(d.grams, want) << d.url;
      }
    }
}

// Stage 4's candidate set at the edges of the gram space and in many passes: the grams 0 and 2⁶⁴ − 1
// (0 marks an empty slot in the set's table), and a thousand candidates whose bits above 20 are all
// equal (one filter bit), each found with exactly its holders, at 1–3 ranks and 1 or 5 passes.
TEST(QuiltStages, PostingsFindEveryCandidateGram) {
  std::vector<std::uint64_t> shared{0, ~std::uint64_t{0}};
  for (std::uint64_t i = 1; i <= 1000; ++i) shared.push_back(i);  // bits 20 and up all zero
  std::sort(shared.begin(), shared.end());
  std::vector<std::uint64_t> lone{0x8000000000000000ull, 0x8000000000000001ull};  // in one document only
  for (int n = 1; n <= 3; ++n)
    for (const std::uint32_t passes : {1u, 5u}) {
      SCOPED_TRACE(testing::Message() << n << " ranks, " << passes << " passes");
      std::mutex mu;
      std::vector<Holding> all;
      comm::run_local(n, [&](comm::Transport& t) {
        std::vector<Document> local;
        for (std::uint64_t d = 0; d < 3; ++d)
          if (static_cast<int>(d) % n == t.rank()) {
            std::vector<std::uint64_t> grams = shared;
            if (d == 0) grams.insert(grams.end(), lone.begin(), lone.end());
            std::sort(grams.begin(), grams.end());
            local.push_back({text::mix64(d + 1), "d" + std::to_string(d), d, 0, grams});
          }
        const shuffle::ShuffleConfig config{4096, nullptr};
        const auto docs = own_documents(t, std::move(local), config);
        SliceWalk walk(docs, passes);
        std::vector<Holding> mine;
        for (std::uint32_t p = 0; p < passes; ++p) {
          auto h = patch_postings(t, docs, walk.next(), 50, config);
          mine.insert(mine.end(), h.begin(), h.end());
        }
        std::lock_guard lock(mu);
        all.insert(all.end(), mine.begin(), mine.end());
      });
      std::sort(all.begin(), all.end(),
                [](const Holding& a, const Holding& b) { return std::tie(a.gram, a.doc) < std::tie(b.gram, b.doc); });
      std::vector<std::uint64_t> holders{text::mix64(1), text::mix64(2), text::mix64(3)};
      std::sort(holders.begin(), holders.end());
      ASSERT_EQ(all.size(), shared.size() * 3);
      for (std::size_t g = 0; g < shared.size(); ++g)
        for (std::size_t k = 0; k < 3; ++k) {
          EXPECT_EQ(all[3 * g + k].gram, shared[g]);
          EXPECT_EQ(all[3 * g + k].doc, holders[k]);
        }
    }
}

}  // namespace
}  // namespace crd::quilts
