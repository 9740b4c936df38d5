// Greedy set cover over weighted holder classes, with lazy gain updates: a candidate's gain only falls as grams are covered,
// so a popped candidate whose recomputed gain still equals its stored one is the true maximum.
#include "cover.hpp"

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

// Groups a cover's (candidate, class) pairs by candidate with the scratch's counters.
struct CoverBuilder {
  static Cover run(std::uint64_t self_server, std::span<const HeldClass> classes, std::span<const OtherHolder> others,
                   std::span<const std::uint64_t> candidate_ids, const CoverRules& rules, CoverScratch& s) {
    Cover cover;
    const auto patch = [&](std::uint32_t c) { return classes[c].df >= 2 && classes[c].df <= rules.m; };
    for (std::uint32_t c = 0; c < classes.size(); ++c)
      if (patch(c)) cover.patch_grams += classes[c].grams;
    const auto counts = [&](const OtherHolder& o) {
      return patch(o.cls) && !(rules.foreign && o.server == self_server);
    };
    s.touched_.clear();
    std::size_t pairs = 0;
    for (const OtherHolder& o : others)
      if (counts(o)) {
        if (s.slot_[o.candidate]++ == 0) s.touched_.push_back(o.candidate);
        ++pairs;
      }
    if (pairs == 0) return cover;
    // Candidate i (ascending id): classes_[start_[i] .. start_[i + 1]); the slots become write positions.
    std::sort(s.touched_.begin(), s.touched_.end());
    s.start_.assign(1, 0);
    for (const auto t : s.touched_) {
      const std::size_t n = s.slot_[t];
      s.slot_[t] = static_cast<std::uint32_t>(s.start_.back());
      s.start_.push_back(s.start_.back() + n);
    }
    s.classes_.resize(pairs);
    for (const OtherHolder& o : others)
      if (counts(o)) s.classes_[s.slot_[o.candidate]++] = o.cls;
    for (const auto t : s.touched_) s.slot_[t] = 0;

    std::vector<bool> covered(classes.size(), false);
    const auto gain_of = [&](std::size_t i) {
      std::uint64_t gain = 0;
      for (std::size_t k = s.start_[i]; k < s.start_[i + 1]; ++k)
        if (!covered[s.classes_[k]]) gain += classes[s.classes_[k]].grams;
      return gain;
    };
    std::vector<Candidate> initial;
    initial.reserve(s.touched_.size());
    for (std::size_t i = 0; i < s.touched_.size(); ++i) initial.push_back({gain_of(i), candidate_ids[s.touched_[i]], i});
    std::priority_queue<Candidate> heap(std::less<Candidate>(), std::move(initial));

    const double least = rules.min_source_share * static_cast<double>(cover.patch_grams);
    while (!heap.empty()) {
      Candidate top = heap.top();
      heap.pop();
      const std::uint64_t gain = gain_of(top.index);
      if (gain == 0) continue;
      if (gain < top.gain) {  // stale: put it back with its current gain
        heap.push({gain, top.doc, top.index});
        continue;
      }
      if (static_cast<double>(gain) < least) break;  // every later source covers as few or fewer
      for (std::size_t k = s.start_[top.index]; k < s.start_[top.index + 1]; ++k) covered[s.classes_[k]] = true;
      cover.sources.push_back({top.doc, gain});
    }
    return cover;
  }
};

Cover greedy_cover(std::uint64_t self_server, std::span<const HeldClass> classes, std::span<const OtherHolder> others,
                   std::span<const std::uint64_t> candidate_ids, const CoverRules& rules, CoverScratch& scratch) {
  return CoverBuilder::run(self_server, classes, others, candidate_ids, rules, scratch);
}

}  // namespace crd::quilts
