// Synthetic corpora for discovery tests: pages of items (Zipf-like reuse) spread over ranks, and a
// single-threaded reference of what discover_labels must compute globally.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "crd/discover/discovery.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/hash/sha1.hpp"

namespace crd::discover::testing {

struct Item {
  Digest hash;
  std::string text;
};

struct Page {
  std::string key;
  std::vector<std::size_t> items;  // indexes into Corpus::items, in page order
  int rank = 0;
};

struct Corpus {
  std::vector<Item> items;
  std::vector<Page> pages;
};

// `empty_ranks` lists ranks that get no pages (if every rank is listed, all pages go to rank 0).
inline Corpus make_corpus(std::uint64_t seed, int nranks, std::size_t npages, std::size_t nitems,
                          const std::vector<int>& empty_ranks = {}) {
  std::mt19937_64 rng(seed);
  Corpus c;
  for (std::size_t i = 0; i < nitems; ++i) {
    // Lengths 1..60: some shorter than min_length, some longer than the sample size.
    const std::size_t len = 1 + rng() % 60;
    std::string text = "i" + std::to_string(i) + ":";
    while (text.size() < len) text.push_back(static_cast<char>('a' + rng() % 26));
    c.items.push_back({sha1(text), text});
  }
  std::vector<int> ranks;
  for (int r = 0; r < nranks; ++r)
    if (std::find(empty_ranks.begin(), empty_ranks.end(), r) == empty_ranks.end()) ranks.push_back(r);
  if (ranks.empty()) ranks.push_back(0);
  // Zipf-like: item i drawn with weight 1/(i+1), so a few items occur on many pages.
  std::vector<double> weights(nitems);
  for (std::size_t i = 0; i < nitems; ++i) weights[i] = 1.0 / static_cast<double>(i + 1);
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  std::vector<std::string> used;
  for (std::size_t p = 0; p < npages; ++p) {
    Page page;
    do {
      page.key = "h" + std::to_string(rng() % 7) + ".org/d" + std::to_string(rng() % 5) + "/p" +
                 std::to_string(rng() % 100000);
    } while (std::find(used.begin(), used.end(), page.key) != used.end());
    used.push_back(page.key);
    const std::size_t n = rng() % 12;  // some pages have no items at all
    for (std::size_t k = 0; k < n; ++k) page.items.push_back(pick(rng));
    page.rank = ranks[rng() % ranks.size()];
    c.pages.push_back(std::move(page));
  }
  return c;
}

struct RankInput {
  PageKeys keys;
  LocalTally tally;
};

inline RankInput rank_input(const Corpus& c, int rank, std::size_t sample_bytes) {
  RankInput in{{}, LocalTally(sample_bytes)};
  for (const Page& p : c.pages) {
    if (p.rank != rank) continue;
    const auto page = static_cast<std::uint32_t>(in.keys.size());
    in.keys.push_back(p.key);
    for (std::size_t i : p.items) {
      const Item& item = c.items[i];
      in.tally.add(item.hash, item.text.size(), item.text, page, in.keys);
    }
  }
  return in;
}

struct Reference {
  std::vector<LabelRow> by_hash;   // labeled rows, hash order (label id = position)
  std::vector<LabelRow> by_count;  // count descending, then hash
  std::vector<HistogramRow> histogram;
  std::uint64_t total = 0, distinct = 0, stop_removed = 0;
  std::map<Digest, std::uint64_t> label_id;
};

inline Reference reference(const Corpus& c, const LabelRules& rules, std::size_t sample_bytes) {
  struct Seen {
    std::uint64_t count = 0;
    std::size_t item = 0;
    std::string min_key;
  };
  std::map<Digest, Seen> seen;
  Reference ref;
  for (const Page& p : c.pages)
    for (std::size_t i : p.items) {
      ++ref.total;
      Seen& s = seen[c.items[i].hash];
      if (s.count == 0 || p.key < s.min_key) s.min_key = p.key;
      ++s.count;
      s.item = i;
    }
  std::map<std::uint64_t, std::uint64_t> hist;
  for (const auto& [hash, s] : seen) {
    ++hist[s.count];
    const std::string& text = c.items[s.item].text;
    const bool stop = text.size() < rules.min_length || (rules.stop != nullptr && rules.stop->contains(hash));
    if (s.count <= rules.threshold) continue;
    if (stop) {
      ++ref.stop_removed;
      continue;
    }
    ref.label_id[hash] = ref.by_hash.size();
    ref.by_hash.push_back({hash, s.count, text.size(), text.substr(0, sample_bytes), s.min_key});
  }
  ref.distinct = seen.size();
  for (const auto& [occ, n] : hist) ref.histogram.push_back({occ, n});
  ref.by_count = ref.by_hash;
  std::sort(ref.by_count.begin(), ref.by_count.end(), [](const LabelRow& a, const LabelRow& b) {
    return a.count != b.count ? a.count > b.count : a.hash < b.hash;
  });
  return ref;
}

inline bool same_row(const LabelRow& a, const LabelRow& b) {
  return a.hash == b.hash && a.count == b.count && a.length == b.length && a.sample == b.sample &&
         a.sample_url == b.sample_url;
}

}  // namespace crd::discover::testing
