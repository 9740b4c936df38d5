// The join of candidates with their pages' Jaccard samples (see jaccard_check.hpp).
#include "crd/neardup/jaccard_check.hpp"

#include <algorithm>
#include <compare>
#include <iterator>

#include "crd/base/heap_bytes.hpp"
#include "crd/neardup/candidates.hpp"
#include "crd/neardup/jaccard_sample.hpp"

namespace crd::neardup {
namespace {

// Step 1: the candidates of one first set, at its owner.
struct AtFirst {
  std::uint64_t a = 0;
  std::vector<JaccardCandidate> list;
  static constexpr auto fields() { return std::tuple(&AtFirst::a, &AtFirst::list); }
};

// Step 2: a first set's sample with its candidates whose second set `to` holds.
struct SecondKey {
  std::uint64_t a = 0;
  std::int32_t to = 0;
  static constexpr auto fields() { return std::tuple(&SecondKey::a, &SecondKey::to); }
  auto operator<=>(const SecondKey&) const = default;
};

struct AtSecond {
  SecondKey key;
  std::vector<std::uint32_t> sample;
  std::vector<JaccardCandidate> list;
  static constexpr auto fields() { return std::tuple(&AtSecond::key, &AtSecond::sample, &AtSecond::list); }
};

}  // namespace

std::uint64_t held_bytes(const JaccardCandidate& c) {
  return sizeof(JaccardCandidate) + heap_bytes(c.row.page_a) + heap_bytes(c.row.page_b);
}

CheckedCandidates check_jaccard(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                                const std::vector<std::uint64_t>& offsets, std::vector<JaccardCandidate> candidates,
                                double min_jaccard, std::uint32_t k, const shuffle::ShuffleConfig& config) {
  const IdOwner owner{&offsets};
  const int nranks = transport.size();
  const std::uint64_t first = offsets[static_cast<std::size_t>(transport.rank())];
  // One record per first set (not per candidate): a capped bucket gives one edge per member.
  std::sort(candidates.begin(), candidates.end());
  std::vector<AtFirst> routed;
  for (std::size_t from = 0; from < candidates.size();) {
    std::size_t to = from + 1;
    while (to < candidates.size() && candidates[to].a == candidates[from].a) ++to;
    AtFirst& r = routed.emplace_back();
    r.a = candidates[from].a;
    r.list.assign(std::make_move_iterator(candidates.begin() + static_cast<std::ptrdiff_t>(from)),
                  std::make_move_iterator(candidates.begin() + static_cast<std::ptrdiff_t>(to)));
    from = to;
  }
  candidates = {};
  routed = shuffle::group_by_key(
      transport, std::move(routed), [](const AtFirst& r) { return r.a; }, owner, &AtFirst::list, config);

  std::vector<AtSecond> second;
  for (AtFirst& r : routed) {
    // A capped bucket's edges repeat across buckets (a member and its bucket's smallest member are
    // often the same pair in all of them): each is checked once, here, where all its copies meet.
    r.list.erase(std::unique(r.list.begin(), r.list.end(),
                             [](const JaccardCandidate& x, const JaccardCandidate& y) {
                               return x.kept == 0 && y.kept == 0 && x.a == y.a && x.b == y.b;
                             }),
                 r.list.end());
    const std::vector<std::uint32_t>& sample = sets[r.a - first].sample;
    // The list is sorted by (a, b): split it by the second set's owner, one sample copy per owner.
    std::vector<std::vector<JaccardCandidate>> by_owner(static_cast<std::size_t>(nranks));
    for (JaccardCandidate& c : r.list) by_owner[static_cast<std::size_t>(owner(c.b, nranks))].push_back(std::move(c));
    for (int to = 0; to < nranks; ++to)
      if (!by_owner[static_cast<std::size_t>(to)].empty())
        second.push_back({{r.a, to}, sample, std::move(by_owner[static_cast<std::size_t>(to)])});
  }
  routed = {};
  second = shuffle::group_by_key(
      transport, std::move(second), [](const AtSecond& r) { return r.key; },
      [](const SecondKey& key, int) { return static_cast<int>(key.to); }, &AtSecond::list, config);

  CheckedCandidates out;
  for (AtSecond& r : second) {
    for (JaccardCandidate& c : r.list) {
      const JaccardEstimate estimate = estimate_jaccard(r.sample, sets[c.b - first].sample, k);
      if (!estimate.at_least(min_jaccard)) {
        ++(c.kept ? out.dropped_pairs : out.dropped_edges);
        continue;
      }
      out.edges.push_back({c.a, c.b});
      if (c.kept) {
        c.row.jaccard = estimate.value();
        out.pairs.push_back(std::move(c.row));
      }
    }
    r = {};
  }
  return out;
}

}  // namespace crd::neardup
