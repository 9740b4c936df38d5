// --host-stop-pages (host_stop.hpp; docs/winnow.md, "A chance rate measured from the crawl"): a
// labeled gram that one host holds on many of its pages is that host's boilerplate and is not
// counted; a gram held once by each of many hosts (a site copied many times) still is. The stop
// labels are counted exactly at any rank count and shuffle round size.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "crd/detect/host_stop.hpp"
#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

// Labels 0 … 999 are the site's grams; 0 … 3 are also a common phrase that every page of 7
// unrelated hosts holds (a license line, a template sentence): 4 of a short page's 12–16 grams,
// on about 43 pages of each host. The site is copied, edited, onto 25 mirror hosts of 4 pages each:
// each of a copy's grams is on 25 hosts, but on at most 2 pages of any one.
testing::World phrase_and_mirrors() {
  testing::PhraseWorld w;
  for (int i = 0; i < 300; ++i)
    w.page("bg" + std::to_string(i % 7) + ".example/p" + std::to_string(i), 0, 0, 8 + i % 5);
  // Edited copies: 100 of their 146 other grams still the site's (an edit costs K grams).
  for (int m = 0; m < 25; ++m)
    for (std::uint32_t j = 0; j < 4; ++j)
      w.page("mirror" + std::to_string(m) + ".example/p" + std::to_string(j), 10 + 50 * j, 100, 46);
  return w.world();
}

TEST(HostStop, CommonPhraseOnEveryPageIsNotCopyingEditedMirrorsAre) {
  testing::World w = phrase_and_mirrors();
  std::vector<PageRow> first;
  for (int nranks : {1, 2, 3}) {
    SCOPED_TRACE("ranks " + std::to_string(nranks));
    testing::spread_pages(w, nranks, 7);
    DetectOptions o;
    o.max_neighborhood_depth = 0;
    o.page_threshold = Threshold::parse("binomial", "page-threshold");
    std::uint64_t without = 0;
    for (const PageRow& p :
         testing::all_pages(testing::run_detect(w, nranks, o, 256, testing::slice_firsts(w.labels, nranks))))
      without += p.flagged;
    EXPECT_EQ(without, w.pages.size()) << "at R = 1 %, 4 common grams of 12–16 are not chance";

    o.host_stop_pages = 20;
    const auto out = testing::run_detect(w, nranks, o, 64, testing::slice_firsts(w.labels, nranks));
    const auto pages = testing::all_pages(out);
    ASSERT_EQ(pages.size(), w.pages.size());
    for (const PageRow& p : pages) {
      EXPECT_EQ(p.flagged, p.url.rfind("mirror", 0) == 0 ? 1 : 0) << p.url;
      // The rows keep the page's own counts; only the rule leaves the stop grams out.
      if (p.url.rfind("bg", 0) == 0) {
        EXPECT_EQ(p.labeled, 4u) << p.url;
      }
    }
    EXPECT_EQ(out[0].result.stats.host_stop_labels, 4u) << "the phrase's grams 0 … 3, not the mirrored ones";
    EXPECT_EQ(out[0].result.stats.flagged_pages, 100u);
    if (nranks == 1) {
      first = pages;
      continue;
    }
    for (std::size_t i = 0; i < pages.size(); ++i) {
      EXPECT_EQ(pages[i].url, first[i].url);
      EXPECT_EQ(pages[i].flagged, first[i].flagged) << pages[i].url;
    }
  }
}

// The limit is relative to the labeled site (LabelSlice::counts): a javadoc-like site repeats its
// member boilerplate (labels 500 … 507) on 300 of its pages, and so does its mirror, on 60 pages,
// which N = 20 alone would stop; the unrelated hosts repeat the common phrase (labels 0 … 3, which
// the site holds 5 times) on about 43 pages each, more than the site does: still stopped.
testing::World repeating_site_and_mirror() {
  testing::PhraseWorld w;
  for (int i = 0; i < 300; ++i)
    w.page("bg" + std::to_string(i % 7) + ".example/p" + std::to_string(i), 0, 0, 8 + i % 5);
  for (int j = 0; j < 60; ++j) w.page("javadoc-mirror.example/p" + std::to_string(j), 500, 8, 30);
  testing::World out = w.world();
  out.site_counts.assign(out.labels, 1);
  for (std::uint32_t c = 0; c < 4; ++c) out.site_counts[c] = 5;
  for (std::uint32_t c = 500; c < 508; ++c) out.site_counts[c] = 300;
  return out;
}

TEST(HostStop, AHostRepeatingWhatTheSiteRepeatsIsAMirrorNotBoilerplate) {
  testing::World w = repeating_site_and_mirror();
  std::vector<PageRow> first;
  for (int nranks : {1, 2, 3}) {
    for (std::size_t round : {std::size_t{16}, std::size_t{1} << 16}) {
      SCOPED_TRACE("ranks " + std::to_string(nranks) + ", round " + std::to_string(round));
      testing::spread_pages(w, nranks, 5);
      DetectOptions o;
      o.max_neighborhood_depth = 0;
      o.page_threshold = Threshold::parse("binomial", "page-threshold");
      o.host_stop_pages = 20;
      const auto out = testing::run_detect(w, nranks, o, round, testing::slice_firsts(w.labels, nranks));
      const auto pages = testing::all_pages(out);
      ASSERT_EQ(pages.size(), w.pages.size());
      for (const PageRow& p : pages)
        EXPECT_EQ(p.flagged, p.url.rfind("javadoc-mirror.example/", 0) == 0 ? 1 : 0) << p.url;
      EXPECT_EQ(out[0].result.stats.host_stop_labels, 4u) << "the common phrase's grams 0 … 3 only";
      EXPECT_EQ(out[0].result.stats.flagged_pages, 60u);
      if (first.empty()) {
        first = pages;
        continue;
      }
      for (std::size_t i = 0; i < pages.size(); ++i) {
        EXPECT_EQ(pages[i].url, first[i].url);
        EXPECT_EQ(pages[i].flagged, first[i].flagged) << pages[i].url;
      }
    }
  }
  // Without the site's counts (a labels file that has none), the rule is N alone: the mirror's
  // repeated grams are stopped with the phrase, and its pages are no longer flagged.
  w.site_counts.clear();
  DetectOptions o;
  o.max_neighborhood_depth = 0;
  o.page_threshold = Threshold::parse("binomial", "page-threshold");
  o.host_stop_pages = 20;
  const auto out = testing::run_detect(w, 2, o, 64, testing::slice_firsts(w.labels, 2));
  for (const PageRow& p : testing::all_pages(out)) EXPECT_EQ(p.flagged, 0) << p.url;
  EXPECT_EQ(out[0].result.stats.host_stop_labels, 12u);
}

// The stop labels themselves, through a shuffle of tiny rounds: exactly the labels some host holds
// on more than N pages, the same list on every rank and for every rank count.
TEST(HostStop, StopLabelsAreThoseAHostRepeatsCountedExactly) {
  testing::World w;
  // Host a.example holds label 5 on 3 pages and label 7 on 2; b.example label 7 on 2, label 9 on 1;
  // c.example label 9 on 3 pages; label 2 once on each of 4 hosts.
  const auto add = [&](const std::string& key, std::vector<std::uint32_t> chunks) {
    w.pages.push_back({key, std::move(chunks), 0});
  };
  add("a.example/1", {5, 7, 2, 5});  // a repeated gram counts one page
  add("a.example/2", {5, 7, 20});
  add("a.example/d/3", {5, 21});
  add("b.example/1", {7, 9, 2});
  add("b.example/2", {7, 22});
  add("c.example/1", {9, 2});
  add("c.example/2", {9, 23});
  add("c.example/3", {9});
  add("d.example/1", {2});
  w.label_of.assign(30, kNoLabel);
  w.is_stop.assign(30, 0);
  for (std::uint32_t c = 0; c < 12; ++c) w.label_of[c] = c;
  w.labels = 12;
  for (int nranks : {1, 2, 3}) {
    SCOPED_TRACE("ranks " + std::to_string(nranks));
    testing::spread_pages(w, nranks);
    const auto firsts = testing::slice_firsts(w.labels, nranks);
    for (std::uint64_t limit : {1u, 2u, 3u}) {
      std::vector<std::vector<std::uint64_t>> got(static_cast<std::size_t>(nranks));
      comm::run_local(nranks, [&](comm::Transport& t) {
        const testing::RankInput in = testing::rank_input(w, t.rank(), firsts);
        got[static_cast<std::size_t>(t.rank())] = host_stop_labels(t, in.keys, in.scores, in.labels, limit, 1, 16);
      });
      const std::vector<std::uint64_t> want = limit == 1   ? std::vector<std::uint64_t>{5, 7, 9}
                                              : limit == 2 ? std::vector<std::uint64_t>{5, 9}
                                                           : std::vector<std::uint64_t>{};
      for (const auto& g : got) EXPECT_EQ(g, want) << "limit " << limit;
    }
    // The site holds label 5 on 3 pages and label 9 on 2: at N = 1, a.example's 3 pages of label
    // 5 are no more than the site's, c.example's 3 of label 9 are more.
    w.site_counts.assign(w.labels, 0);
    w.site_counts[5] = 3;
    w.site_counts[9] = 2;
    std::vector<std::vector<std::uint64_t>> got(static_cast<std::size_t>(nranks));
    comm::run_local(nranks, [&](comm::Transport& t) {
      const testing::RankInput in = testing::rank_input(w, t.rank(), firsts);
      got[static_cast<std::size_t>(t.rank())] = host_stop_labels(t, in.keys, in.scores, in.labels, 1, 1, 16);
    });
    for (const auto& g : got) EXPECT_EQ(g, (std::vector<std::uint64_t>{7, 9})) << "relative to the site";
    // --host-stop-site-ratio 2: label 9's limit is 4 pages, so c.example's 3 are no longer more.
    comm::run_local(nranks, [&](comm::Transport& t) {
      const testing::RankInput in = testing::rank_input(w, t.rank(), firsts);
      got[static_cast<std::size_t>(t.rank())] = host_stop_labels(t, in.keys, in.scores, in.labels, 1, 2, 16);
    });
    for (const auto& g : got) EXPECT_EQ(g, (std::vector<std::uint64_t>{7})) << "twice the site's count";
    // The product saturates: the largest ratio spares every label the site holds, wraps none to a
    // small limit.
    comm::run_local(nranks, [&](comm::Transport& t) {
      const testing::RankInput in = testing::rank_input(w, t.rank(), firsts);
      got[static_cast<std::size_t>(t.rank())] =
          host_stop_labels(t, in.keys, in.scores, in.labels, 1, std::numeric_limits<std::uint64_t>::max(), 16);
    });
    for (const auto& g : got) EXPECT_EQ(g, (std::vector<std::uint64_t>{7})) << "saturated";
    w.site_counts.clear();
  }
}

// Each stopped occurrence of a gram leaves the page's chunks and labeled; an exact chunk
// (--chunker winnow+scan) is kept whatever its label, so the exact part is unchanged.
TEST(HostStop, PageCountsWithoutStopLabelsKeepTheParts) {
  PageScores s;
  s.page = {0};
  s.chunks = {10};
  s.labeled = {4};
  s.containment = {0.4};
  s.match_offsets = {0, 4};
  s.positions = {0, 1, 5, 7};
  s.label_ids = {3, 8, 3, 11};
  s.exact_chunks = {3};
  s.exact_labeled = {2};
  s.match_exact = {1, 0, 0, 0};  // label 3 once as an exact chunk (position 0), once as a gram
  const std::vector<std::uint64_t> stop{3, 8, 12};
  const PageCounts c = page_counts_without(s, 0, stop);
  EXPECT_EQ(c.chunks, 8u);
  EXPECT_EQ(c.labeled, 2u);
  EXPECT_EQ(c.exact_chunks, 3u);
  EXPECT_EQ(c.exact_labeled, 2u);
  const PageCounts none = page_counts_without(s, 0, {});
  EXPECT_EQ(none.chunks, 10u);
  EXPECT_EQ(none.exact_labeled, 2u);
}

}  // namespace
}  // namespace crd::detect
