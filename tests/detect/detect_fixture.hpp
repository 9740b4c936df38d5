// Synthetic detection inputs: pages (url key + chunk ids) spread over ranks, a global label table,
// and each rank's PageScores / LabelSlice built from them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "crd/comm/local_transport.hpp"
#include "crd/detect/detection.hpp"
#include "crd/detect/page_scores.hpp"

namespace crd::detect::testing {

struct Page {
  std::string key;
  std::vector<std::uint32_t> chunks;  // global chunk ids, page order
  int rank = 0;
};

struct World {
  std::vector<Page> pages;
  std::vector<std::uint64_t> label_of;  // by chunk id
  std::vector<std::uint8_t> is_stop;    // by chunk id
  std::uint64_t labels = 0;             // label ids 0 … labels-1
  // By label id: its count in the labeled corpus (LabelSlice::counts); none given: all unknown (0).
  std::vector<std::uint64_t> site_counts;
};

// Deals the pages out to `nranks` ranks, page i to rank (i · stride) mod nranks: a stride prime to
// the rank count mixes each host's pages over the ranks, unlike blocks of consecutive pages.
inline void spread_pages(World& w, int nranks, std::size_t stride = 1) {
  for (std::size_t i = 0; i < w.pages.size(); ++i)
    w.pages[i].rank = static_cast<int>((i * stride) % static_cast<std::size_t>(nranks));
}

// Random pages under a few hosts and directories; chunk ids drawn with reuse; a fraction of chunks
// labeled, a few stop chunks.
inline World make_world(std::uint64_t seed, std::size_t npages, std::uint32_t nchunks) {
  std::mt19937_64 rng(seed);
  World w;
  w.label_of.assign(nchunks, kNoLabel);
  w.is_stop.assign(nchunks, 0);
  for (std::uint32_t c = 0; c < nchunks; ++c) {
    if (rng() % 10 == 0) w.is_stop[c] = 1;
    if (rng() % 3 == 0) w.label_of[c] = w.labels++;
  }
  std::vector<std::string> used;
  for (std::size_t p = 0; p < npages; ++p) {
    Page page;
    do {
      page.key = "h" + std::to_string(rng() % 4) + ".net";
      const auto depth = rng() % 4;
      for (std::uint64_t d = 0; d < depth; ++d) page.key += "/d" + std::to_string(rng() % 3);
      page.key += "/p" + std::to_string(rng() % 1000);
    } while (std::find(used.begin(), used.end(), page.key) != used.end());
    used.push_back(page.key);
    const auto n = rng() % 15;  // 0 … 14 chunks; some pages end up empty after stop removal
    for (std::uint64_t k = 0; k < n; ++k) page.chunks.push_back(static_cast<std::uint32_t>(rng() % nchunks));
    w.pages.push_back(std::move(page));
  }
  return w;
}

// A crawl against a labeled site of 1000 grams (labels 0 … 999), of which 0 … 3 are also a common
// phrase (a license line, a template sentence) that every page holds. page() adds a page: the
// phrase, `labeled` site grams from `first_label` on, and `own` grams no other page has; world()
// then labels the site's grams.
class PhraseWorld {
 public:
  void page(const std::string& key, std::uint32_t first_label, std::uint32_t labeled, std::uint32_t own) {
    Page p;
    p.key = key;
    for (std::uint32_t k = 0; k < 4; ++k) p.chunks.push_back(k);
    for (std::uint32_t k = 0; k < labeled; ++k) p.chunks.push_back(first_label + k);
    for (std::uint32_t k = 0; k < own; ++k) p.chunks.push_back(next_unlabeled_++);
    w_.pages.push_back(std::move(p));
  }
  World world() {
    w_.label_of.assign(next_unlabeled_, kNoLabel);
    w_.is_stop.assign(next_unlabeled_, 0);
    for (std::uint32_t c = 0; c < kSiteGrams; ++c) w_.label_of[c] = c;
    w_.labels = kSiteGrams;
    return w_;
  }

 private:
  static constexpr std::uint32_t kSiteGrams = 1000;
  World w_;
  std::uint32_t next_unlabeled_ = kSiteGrams;
};

struct RankInput {
  std::vector<std::string> keys;
  PageScores scores;
  LabelSlice labels;
};

// slice_firsts[r]: first label id of rank r (non-decreasing, slice_firsts[0] == 0).
inline RankInput rank_input(const World& w, int rank, const std::vector<std::uint64_t>& slice_firsts) {
  RankInput in;
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint32_t> ids;
  for (const Page& p : w.pages) {
    if (p.rank != rank) continue;
    in.keys.push_back(p.key);
    ids.insert(ids.end(), p.chunks.begin(), p.chunks.end());
    offsets.push_back(ids.size());
  }
  in.scores = score_pages(offsets, ids, w.label_of, w.is_stop);
  const auto r = static_cast<std::size_t>(rank);
  in.labels.first_id = slice_firsts[r];
  const std::uint64_t end = r + 1 < slice_firsts.size() ? slice_firsts[r + 1] : w.labels;
  for (std::uint64_t id = in.labels.first_id; id < end; ++id) {
    Digest d;
    d.bytes[0] = static_cast<std::uint8_t>(id);
    in.labels.hashes.push_back(d);
    in.labels.lengths.push_back(id);
    in.labels.samples.push_back("label " + std::to_string(id));
    in.labels.counts.push_back(id < w.site_counts.size() ? w.site_counts[id] : 0);
  }
  return in;
}

// Even split of the label ids, or a random one (which may leave ranks without labels).
inline std::vector<std::uint64_t> slice_firsts(std::uint64_t labels, int nranks, std::mt19937_64* rng = nullptr) {
  std::vector<std::uint64_t> firsts;
  for (int r = 0; r < nranks; ++r)
    firsts.push_back(labels * static_cast<std::uint64_t>(r) / static_cast<std::uint64_t>(nranks));
  if (rng != nullptr) {
    for (int r = 1; r < nranks; ++r) firsts[static_cast<std::size_t>(r)] = (*rng)() % (labels + 1);
    std::sort(firsts.begin(), firsts.end());
  }
  return firsts;
}

struct RankOutput {
  DetectionResult result;
  std::vector<NeighborhoodRow> aggregated;  // aggregate_neighborhoods alone
};

inline std::vector<RankOutput> run_detect(const World& w, int nranks, const DetectOptions& options,
                                          std::size_t round_bytes, const std::vector<std::uint64_t>& firsts) {
  std::vector<RankOutput> out(static_cast<std::size_t>(nranks));
  comm::run_local(nranks, [&](comm::Transport& t) {
    const RankInput in = rank_input(w, t.rank(), firsts);
    RankOutput& mine = out[static_cast<std::size_t>(t.rank())];
    mine.aggregated = aggregate_neighborhoods(t, in.keys, in.scores, options, round_bytes);
    mine.result = detect(t, in.keys, in.scores, in.labels, options, round_bytes);
  });
  return out;
}

// Concatenations in rank order.
inline std::vector<PageRow> all_pages(const std::vector<RankOutput>& out) {
  std::vector<PageRow> v;
  for (const auto& o : out) v.insert(v.end(), o.result.pages.begin(), o.result.pages.end());
  return v;
}
inline std::vector<NeighborhoodRow> all_neighborhoods(const std::vector<RankOutput>& out) {
  std::vector<NeighborhoodRow> v;
  for (const auto& o : out) v.insert(v.end(), o.result.neighborhoods.begin(), o.result.neighborhoods.end());
  return v;
}
inline std::vector<LabelUse> all_label_use(const std::vector<RankOutput>& out) {
  std::vector<LabelUse> v;
  for (const auto& o : out) v.insert(v.end(), o.result.label_use.begin(), o.result.label_use.end());
  return v;
}

}  // namespace crd::detect::testing
