// Greedy set cover over weighted holder classes, with lazy gain updates: a candidate's gain only falls as grams are covered,
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

Cover greedy_cover(std::uint64_t self_server, std::span<const HeldClass> classes, std::span<const OtherHolder> others,
                   const CoverRules& rules) {
  Cover cover;
  const auto patch = [&](std::uint32_t c) { return classes[c].df >= 2 && classes[c].df <= rules.m; };
  for (std::uint32_t c = 0; c < classes.size(); ++c)
    if (patch(c)) cover.patch_grams += classes[c].grams;
  // (candidate document, class) for every other holder of every patch class.
  struct Pair {
    std::uint64_t doc;
    std::uint32_t cls;
  };
  std::vector<Pair> pairs;
  pairs.reserve(others.size());
  for (const OtherHolder& o : others)
    if (patch(o.cls) && !(rules.foreign && o.server == self_server)) pairs.push_back({o.doc, o.cls});
  if (pairs.empty()) return cover;
  std::sort(pairs.begin(), pairs.end(),
            [](const Pair& a, const Pair& b) { return a.doc != b.doc ? a.doc < b.doc : a.cls < b.cls; });

  std::vector<std::size_t> start;  // candidate i's classes: pairs[start[i] .. start[i + 1])
  std::priority_queue<Candidate> heap;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (i == 0 || pairs[i].doc != pairs[i - 1].doc) start.push_back(i);
  start.push_back(pairs.size());
  const auto gain_of = [&](std::size_t candidate, const std::vector<bool>& covered) {
    std::uint64_t gain = 0;
    for (std::size_t i = start[candidate]; i < start[candidate + 1]; ++i)
      if (!covered[pairs[i].cls]) gain += classes[pairs[i].cls].grams;
    return gain;
  };
  std::vector<bool> covered(classes.size(), false);
  for (std::size_t c = 0; c + 1 < start.size(); ++c) heap.push({gain_of(c, covered), pairs[start[c]].doc, c});

  const double least = rules.min_source_share * static_cast<double>(cover.patch_grams);
  while (!heap.empty()) {
    Candidate top = heap.top();
    heap.pop();
    const std::uint64_t gain = gain_of(top.index, covered);
    if (gain == 0) continue;
    if (gain < top.gain) {  // stale: put it back with its current gain
      heap.push({gain, top.doc, top.index});
      continue;
    }
    if (static_cast<double>(gain) < least) break;  // every later source covers as few or fewer
    for (std::size_t i = start[top.index]; i < start[top.index + 1]; ++i) covered[pairs[i].cls] = true;
    cover.sources.push_back({top.doc, gain});
  }
  return cover;
}

}  // namespace crd::quilts
