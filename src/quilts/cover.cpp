// Greedy set cover with lazy gain updates: a candidate's gain only falls as grams are covered,
// so a popped candidate whose recomputed gain still equals its stored one is the true maximum.
#include "crd/quilts/cover.hpp"

#include <algorithm>
#include <queue>

namespace crd::quilts {
namespace {

struct Candidate {
  std::uint64_t gain;
  std::uint64_t doc;
  std::size_t index;  // into the candidates' gram lists
  bool operator<(const Candidate& o) const {  // priority_queue: largest gain, then smallest doc
    return gain != o.gain ? gain < o.gain : doc > o.doc;
  }
};

}  // namespace

Cover greedy_cover(std::uint64_t self_server, std::span<const Mention> mentions, const CoverRules& rules) {
  Cover cover;
  // (candidate document, patch gram index) for every other holder of every patch gram.
  struct Pair {
    std::uint64_t doc;
    std::uint32_t gram;
  };
  std::vector<Pair> pairs;
  std::uint32_t patch = 0;  // patch grams so far; the current one is patch - 1
  for (std::size_t i = 0; i < mentions.size(); ++i) {
    const Mention& x = mentions[i];
    if (x.df < 2 || x.df > rules.m) continue;
    if (i == 0 || x.gram != mentions[i - 1].gram) ++patch;
    if (!(rules.foreign && x.other_server == self_server)) pairs.push_back({x.other, patch - 1});
  }
  cover.patch_grams = patch;
  if (pairs.empty()) return cover;
  std::sort(pairs.begin(), pairs.end(),
            [](const Pair& a, const Pair& b) { return a.doc != b.doc ? a.doc < b.doc : a.gram < b.gram; });

  std::vector<std::size_t> start;  // candidate i's grams: pairs[start[i] .. start[i + 1])
  std::priority_queue<Candidate> heap;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (i == 0 || pairs[i].doc != pairs[i - 1].doc) start.push_back(i);
  start.push_back(pairs.size());
  for (std::size_t c = 0; c + 1 < start.size(); ++c) heap.push({start[c + 1] - start[c], pairs[start[c]].doc, c});

  std::vector<bool> covered(patch, false);
  const double least = rules.min_source_share * static_cast<double>(patch);
  while (!heap.empty()) {
    Candidate top = heap.top();
    heap.pop();
    std::uint64_t gain = 0;
    for (std::size_t i = start[top.index]; i < start[top.index + 1]; ++i) gain += covered[pairs[i].gram] ? 0 : 1;
    if (gain == 0) continue;
    if (gain < top.gain) {  // stale: put it back with its current gain
      heap.push({gain, top.doc, top.index});
      continue;
    }
    if (static_cast<double>(gain) < least) break;  // every later source covers as few or fewer
    for (std::size_t i = start[top.index]; i < start[top.index + 1]; ++i) covered[pairs[i].gram] = true;
    cover.sources.push_back({top.doc, gain});
  }
  return cover;
}

}  // namespace crd::quilts
