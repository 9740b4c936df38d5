// --cross-host-stop-hosts (cross_host_stop.hpp; docs/winnow.md, "Phrasing shared across hosts"): a
// labeled gram that pages of many different hosts hold, pages that are otherwise no copies, is
// phrasing and is not counted; edited copies on many mirror hosts and diluted copies on a few stay
// flagged. Exact at any rank count and shuffle round size.
#include <gtest/gtest.h>

#include <string>

#include "crd/detect/combined_rule.hpp"
#include "cross_host_stop.hpp"
#include "detect_fixture.hpp"

namespace crd::detect {
namespace {

// The labeled site's grams are labels 0 … 999; 0 … 7 are also a phrase of the crawl (an API
// sentence, a license line). Twelve unrelated hosts hold it on 3 pages each, fewer than any host
// stop limit: two long pages (8 of 308 grams, 2.6 %) and one short page (8 of 28) that the binomial
// rule flags at R = 1 %. Edited copies of site pages (the phrase, 100 site grams, 46 edited) are on
// 20 mirror hosts, more than any H, each page 70 % copied; diluted copies (the phrase and 24 site
// grams among 700 added: 4.4 %, below a cut of 5 %; 3.3 % without the phrase) are on 3 hosts.
testing::World phrase_on_many_hosts() {
  testing::World w;
  std::uint32_t next_own = 1000;
  const auto page = [&](const std::string& key, std::uint32_t first_site, std::uint32_t site, std::uint32_t own) {
    testing::Page p;
    p.key = key;
    for (std::uint32_t k = 0; k < 8; ++k) p.chunks.push_back(k);
    for (std::uint32_t k = 0; k < site; ++k) p.chunks.push_back(first_site + k);
    for (std::uint32_t k = 0; k < own; ++k) p.chunks.push_back(next_own++);
    w.pages.push_back(std::move(p));
  };
  for (int h = 0; h < 12; ++h) {
    const std::string host = "unrelated" + std::to_string(h) + ".example/";
    page(host + "long1", 0, 0, 300);
    page(host + "long2", 0, 0, 300);
    page(host + "short", 0, 0, 20);
  }
  for (int m = 0; m < 20; ++m)
    for (std::uint32_t j = 0; j < 2; ++j)
      page("edited" + std::to_string(m) + ".example/p" + std::to_string(j), 10 + 100 * j, 100, 46);
  for (int m = 0; m < 3; ++m)
    for (std::uint32_t j = 0; j < 4; ++j)
      page("diluted" + std::to_string(m) + ".example/p" + std::to_string(j), 300 + 24 * j, 24, 700);
  w.label_of.assign(next_own, kNoLabel);
  w.is_stop.assign(next_own, 0);
  for (std::uint32_t c = 0; c < 1000; ++c) w.label_of[c] = c;
  w.labels = 1000;
  return w;
}

bool is_copy(const std::string& url) { return url.rfind("edited", 0) == 0 || url.rfind("diluted", 0) == 0; }

DetectOptions winnow_options() {
  DetectOptions o;
  o.max_neighborhood_depth = 0;
  o.page_threshold = Threshold::parse("binomial", "page-threshold");
  o.host_stop_pages = 20;
  return o;
}

TEST(CrossHostStop, PhraseOnManyUnrelatedHostsIsStoppedCopiesOnManyMirrorsAreNot) {
  testing::World w = phrase_on_many_hosts();
  {  // Without the rule the short unrelated pages are flagged: 8 shared grams of 28 are not chance.
    testing::spread_pages(w, 1);
    std::uint64_t unrelated = 0;
    for (const PageRow& p : testing::all_pages(testing::run_detect(w, 1, winnow_options(), 1 << 16, {0})))
      unrelated += p.flagged != 0 && !is_copy(p.url);
    EXPECT_EQ(unrelated, 12u);
  }
  std::vector<PageRow> first;
  for (int nranks : {1, 2, 3}) {
    for (std::size_t round : {std::size_t{16}, std::size_t{1} << 16}) {
      SCOPED_TRACE("ranks " + std::to_string(nranks) + ", round " + std::to_string(round));
      testing::spread_pages(w, nranks, 5);
      DetectOptions o = winnow_options();
      o.cross_host_stop_hosts = 5;
      o.cross_host_stop_cut = 0.05;
      const auto out = testing::run_detect(w, nranks, o, round, testing::slice_firsts(w.labels, nranks));
      const auto pages = testing::all_pages(out);
      ASSERT_EQ(pages.size(), w.pages.size());
      for (const PageRow& p : pages) EXPECT_EQ(p.flagged, is_copy(p.url) ? 1 : 0) << p.url;
      EXPECT_EQ(out[0].result.stats.cross_host_stop_labels, 8u) << "the phrase's grams 0 … 7, no copied gram";
      EXPECT_EQ(out[0].result.stats.host_stop_labels, 0u);
      EXPECT_EQ(out[0].result.stats.flagged_pages, 52u);
      if (first.empty()) {
        first = pages;
        continue;
      }
      ASSERT_EQ(pages.size(), first.size());
      for (std::size_t i = 0; i < pages.size(); ++i) {
        EXPECT_EQ(pages[i].url, first[i].url);
        EXPECT_EQ(pages[i].flagged, first[i].flagged) << pages[i].url;
      }
    }
  }
}

// Why H must be above what a set's own diluted mirrors supply, and why the cut, not H, protects
// mirrors that are mostly copied: at H = 3 the three diluted hosts' site grams are stopped with the
// phrase and those copies are lost; at a cut of 0.8 the edited mirrors' pages count too, and 20 of
// them are more than any H, so their grams are stopped and they are lost.
TEST(CrossHostStop, HAboveTheDilutedMirrorsAndTheCutBelowTheCopiesKeepThem) {
  testing::World w = phrase_on_many_hosts();
  testing::spread_pages(w, 2, 3);
  const auto flagged_of = [&](std::uint64_t hosts, double cut, const std::string& prefix) {
    DetectOptions o = winnow_options();
    o.cross_host_stop_hosts = hosts;
    o.cross_host_stop_cut = cut;
    std::uint64_t n = 0;
    for (const PageRow& p : testing::all_pages(testing::run_detect(w, 2, o, 64, testing::slice_firsts(w.labels, 2))))
      n += p.flagged != 0 && p.url.rfind(prefix, 0) == 0;
    return n;
  };
  EXPECT_EQ(flagged_of(4, 0.05, "diluted"), 12u);
  EXPECT_EQ(flagged_of(3, 0.05, "diluted"), 0u);
  EXPECT_EQ(flagged_of(20, 0.05, "edited"), 40u);
  EXPECT_EQ(flagged_of(20, 0.8, "edited"), 0u);
}

// The stop labels themselves, through a shuffle of tiny rounds: a host counts once however many of
// its pages hold the label, only pages strictly below the cut count, already stopped labels and
// exact chunks are not counted; the same list on every rank and for every rank count.
TEST(CrossHostStop, StopLabelsAreThoseOfEnoughHostsBelowTheCut) {
  testing::World w;
  const auto add = [&](const std::string& key, std::vector<std::uint32_t> chunks) {
    w.pages.push_back({key, std::move(chunks), 0});
  };
  // Label 1: on a, b, c (low pages). Label 2: on a three times, and on b. Label 3: on a and b (low)
  // and on c's copied page (containment 0.5). Label 4: on a, b, c, but stopped already.
  add("a.example/1", {1, 2, 4, 20, 21, 22, 23, 24, 25, 26});    // 3 of 10 labeled: 0.3
  add("a.example/2", {2, 3, 27, 28, 29, 30, 31, 32, 33, 34});   // 0.2
  add("a.example/3", {2, 35, 36, 37, 38, 39, 40, 41, 42, 43});  // 0.1
  add("b.example/1", {1, 2, 3, 4, 44, 45, 46, 47, 48, 49});     // 0.4
  add("c.example/1", {1, 4, 50, 51, 52, 53, 54, 55, 56, 57});   // 0.2
  add("c.example/2", {3, 5, 6, 7, 8, 58, 59, 60, 61, 62});      // 0.5
  w.label_of.assign(70, kNoLabel);
  w.is_stop.assign(70, 0);
  for (std::uint32_t c = 0; c < 10; ++c) w.label_of[c] = c;
  w.labels = 10;
  const std::vector<std::uint64_t> stopped{4};
  for (int nranks : {1, 2, 3}) {
    SCOPED_TRACE("ranks " + std::to_string(nranks));
    testing::spread_pages(w, nranks);
    const auto firsts = testing::slice_firsts(w.labels, nranks);
    const auto stop_at = [&](std::uint64_t hosts, double cut) {
      std::vector<std::vector<std::uint64_t>> got(static_cast<std::size_t>(nranks));
      comm::run_local(nranks, [&](comm::Transport& t) {
        const testing::RankInput in = testing::rank_input(w, t.rank(), firsts);
        std::vector<PageCounts> counts;
        for (std::size_t i = 0; i < in.scores.size(); ++i) counts.push_back(page_counts(in.scores, i));
        got[static_cast<std::size_t>(t.rank())] =
            cross_host_stop_labels(t, in.keys, in.scores, counts, stopped, in.labels, hosts, cut, 16);
      });
      for (std::size_t r = 1; r < got.size(); ++r) EXPECT_EQ(got[r], got[0]) << "rank " << r;
      return got[0];
    };
    EXPECT_EQ(stop_at(3, 0.6), (std::vector<std::uint64_t>{1, 3}));
    EXPECT_EQ(stop_at(3, 0.5), (std::vector<std::uint64_t>{1})) << "c's page at 0.5 is not below 0.5";
    EXPECT_EQ(stop_at(2, 0.45), (std::vector<std::uint64_t>{1, 2, 3}));
    EXPECT_EQ(stop_at(2, 0.35), (std::vector<std::uint64_t>{1})) << "without b's page (0.4), 2 and 3 keep one host";
    EXPECT_EQ(stop_at(4, 1.0), (std::vector<std::uint64_t>{}));
    EXPECT_EQ(stop_at(0, 1.0), (std::vector<std::uint64_t>{})) << "off";
  }
}

}  // namespace
}  // namespace crd::detect
