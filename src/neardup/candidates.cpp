// Identity sets, bucket routing and pair finding for crd neardup (see candidates.hpp).
#include "crd/neardup/candidates.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string_view>

#include "buckets.hpp"
#include "crd/base/uint128.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/neardup/clusters.hpp"
#include "crd/text/fingerprint.hpp"
#include "site.hpp"

namespace crd::neardup {
namespace {

// Whether two members of bucket position `index` share an earlier bucket that is not capped
// (`capped` sorted): the pair is kept there, not here.
bool kept_earlier(const Sketch& a, const Sketch& b, std::uint32_t index, const PairRules& rules,
                  const std::vector<BucketKey>& capped) {
  for (std::uint32_t i = 0; i < index; ++i) {
    const std::uint64_t value = bucket_value(a, i, rules);
    if (value == bucket_value(b, i, rules) && !std::binary_search(capped.begin(), capped.end(), BucketKey{value, i}))
      return true;
  }
  return false;
}

std::size_t member_root(std::vector<std::size_t>& parent, std::size_t a) {
  while (parent[a] != a) a = parent[a] = parent[parent[a]];
  return a;
}

// Groupings of a capped bucket's members, at most: past this many subsets of positions the bucket is
// one group (see grouping_positions).
constexpr std::size_t kMaxGroupings = 64;

// How a capped bucket at position `index` groups its members for the clusters: one subset of the
// other positions per grouping, members agreeing on all of a subset's values forming a group. Two
// members of the bucket already agree at `index`, so under Broder's rule (t = min_b_similarity
// agreeing supershingles) they are B-similar exactly when they agree on t − 1 other positions: each
// (t − 1)-subset's groups are cliques of B-similar pages, and every B-similar pair of the bucket is
// in one of them. Alg. C has no such structure (its pairs are judged by bits), t ≤ 1 makes the
// bucket itself the group, and more than kMaxGroupings subsets would cost more than they save:
// then the only grouping is the empty subset, the whole bucket.
std::vector<std::vector<std::uint32_t>> grouping_positions(std::uint32_t positions, std::uint32_t index,
                                                           const PairRules& rules) {
  if (rules.method == Method::SimHash || rules.min_b_similarity <= 1 || rules.min_b_similarity > positions) return {{}};
  std::vector<std::uint32_t> others;
  for (std::uint32_t i = 0; i < positions; ++i)
    if (i != index) others.push_back(i);
  const std::size_t choose = rules.min_b_similarity - 1;
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<std::size_t> at(choose);  // the subset's indices into `others`, ascending
  for (std::size_t i = 0; i < choose; ++i) at[i] = i;
  while (true) {
    if (out.size() == kMaxGroupings) return {{}};
    std::vector<std::uint32_t> subset;
    for (const std::size_t i : at) subset.push_back(others[i]);
    out.push_back(std::move(subset));
    std::size_t i = choose;  // the next subset in lexicographic order
    while (i > 0 && at[i - 1] == others.size() - choose + i - 1) --i;
    if (i == 0) return out;
    ++at[i - 1];
    for (std::size_t j = i; j < choose; ++j) at[j] = at[j - 1] + 1;
  }
}

// Joins (in `joined`, over member positions) the members of one group of a capped bucket through at
// most kClusterLeaders leaders: each member is compared with the group's leaders (members that
// matched no earlier leader) it is not yet joined to and joined to every one whose pair with it the
// method accepts, so a group of mutually similar pages is not split by the order of its leaders.
// Marks in `left_out` the members that matched none while the leaders were full.
void link_through_leaders(const Bucket& bucket, const std::vector<std::size_t>& group, const PairRules& rules,
                          std::vector<std::size_t>& joined, std::vector<char>& left_out) {
  std::vector<std::size_t> leaders;
  for (const std::size_t i : group) {
    const Member& m = *bucket.members[i];
    bool linked = false;
    for (const std::size_t l : leaders) {
      const std::size_t rl = member_root(joined, l), ri = member_root(joined, i);
      if (rl == ri) {  // already joined (through another leader or grouping): no need to compare
        linked = true;
        continue;
      }
      const Member& leader = *bucket.members[l];
      if (!accepted(rules, b_similarity(leader.sketch, m.sketch), c_similarity(leader.sketch, m.sketch))) continue;
      joined[std::max(rl, ri)] = std::min(rl, ri);
      linked = true;
    }
    if (linked) continue;
    if (leaders.size() < kClusterLeaders)
      leaders.push_back(i);
    else
      left_out[i] = 1;
  }
}

// A capped bucket's clusters without its pairs (clusters.hpp): its members grouped by each of
// grouping_positions' subsets, each group of two or more joined through its leaders. Under Broder's
// rule every B-similar pair of the bucket is joined (a group's members are pairwise B-similar, so
// its first leader takes them all); the combined method also asks each group's C-similarity of a
// leader, Alg. C of the whole bucket's leaders. Returns the members that end joined to no other
// member of the bucket after matching no leader while some group's leaders were full.
std::uint64_t capped_bucket_joins(const Bucket& bucket, const PairRules& rules, std::vector<std::size_t>& joined) {
  const std::size_t n = bucket.members.size();
  std::vector<char> left_out(n, 0);
  // A member's values at a subset, as one number (the value itself for one position, else a
  // fingerprint: a collision could only make a group that is not a clique, whose pairs are still
  // each checked by the method), and its position, so each grouping is one sort of plain pairs.
  struct Keyed {
    std::uint64_t key;
    std::size_t at;
    auto operator<=>(const Keyed&) const = default;
  };
  std::vector<Keyed> keyed(n);
  std::vector<std::size_t> group;
  for (const auto& subset :
       grouping_positions(bucket_count(bucket.members.front()->sketch, rules), bucket.key.index, rules)) {
    for (std::size_t x = 0; x < n; ++x) {
      const auto& super = bucket.members[x]->sketch.super;
      std::uint64_t key = subset.size() == 1 ? super[subset[0]] : 0;
      if (subset.size() > 1)
        for (const std::uint32_t i : subset) key = text::mix64(key ^ super[i]);
      keyed[x] = {key, x};
    }
    // By the subset's values, then by key (the members' order): groups are runs, in key order.
    if (!subset.empty()) std::sort(keyed.begin(), keyed.end());
    for (std::size_t from = 0; from < n;) {
      std::size_t to = from + 1;
      while (to < n && keyed[to].key == keyed[from].key) ++to;
      if (to - from >= 2) {
        group.clear();
        for (std::size_t x = from; x < to; ++x) group.push_back(keyed[x].at);
        link_through_leaders(bucket, group, rules, joined, left_out);
      }
      from = to;
    }
  }
  std::vector<std::uint32_t> component(n, 0);
  for (std::size_t x = 0; x < n; ++x) ++component[member_root(joined, x)];
  std::uint64_t unlinked = 0;
  for (std::size_t x = 0; x < n; ++x) unlinked += left_out[x] && component[member_root(joined, x)] == 1;
  return unlinked;
}

// The pairs kept in buckets of one size, summed over a rank's buckets (--max-pairs).
struct BucketPairs {
  std::uint64_t bucket_size = 0;
  std::uint64_t pairs = 0;
  std::uint64_t key_bytes = 0;
};

// The largest bucket size whose pairs, with those of every smaller bucket, stay within max_pairs
// (`all`: every rank's counts, in any order). The pairs of larger buckets are not kept.
std::uint64_t kept_bucket_size(const std::vector<BucketPairs>& all, std::uint64_t max_pairs) {
  std::map<std::uint64_t, std::uint64_t> by_size;
  for (const BucketPairs& b : all) by_size[b.bucket_size] += b.pairs;
  std::uint64_t kept = 0, limit = 0;
  for (const auto& [n, pairs] : by_size) {
    if (kept + pairs > max_pairs) return limit;
    kept += pairs;
    limit = n;
  }
  return ~std::uint64_t{0};
}

}  // namespace

std::uint64_t held_bytes(const SketchedPage& page) {
  std::uint64_t bytes =
      sizeof(SketchedPage) + sketch_bytes(page.sketch) + page.sample.capacity() * sizeof(std::uint32_t);
  for (const std::string& p : page.pages) bytes += sizeof(std::string) + p.capacity();
  return bytes;
}

std::uint64_t bucket_entries_bytes(const SketchedPage& set, const PairRules& rules) {
  return bucket_count(set.sketch, rules) * entry_bytes();
}

std::uint64_t held_bytes(const PairRow& pair) {
  return sizeof(PairRow) + heap_bytes(pair.page_a) + heap_bytes(pair.page_b);
}

bool accepted(const PairRules& rules, std::uint32_t b_sim, std::uint32_t c_sim) {
  switch (rules.method) {
    case Method::MinHash:
      return b_sim >= rules.min_b_similarity;
    case Method::SimHash:
      return c_sim >= rules.min_c_similarity;
    case Method::Combined:
      return b_sim >= rules.min_b_similarity && c_sim >= rules.combined_c_similarity;
  }
  return false;
}

std::vector<SketchedPage> group_identical(comm::Transport& transport, std::vector<SketchedPage> pages,
                                          const shuffle::ShuffleConfig& config) {
  auto sets = shuffle::reduce_by_key(
      transport, std::move(pages), [](const SketchedPage& p) -> const Digest& { return p.identity; },
      shuffle::HashPrefixOwner{},
      [](SketchedPage& into, SketchedPage& from) {
        // Equal token sequences have equal sketches: only the page lists merge.
        into.pages.insert(into.pages.end(), std::make_move_iterator(from.pages.begin()),
                          std::make_move_iterator(from.pages.end()));
      },
      config);
  for (SketchedPage& s : sets) std::sort(s.pages.begin(), s.pages.end());
  return sets;
}

std::vector<IdentityRow> identity_rows(const std::vector<SketchedPage>& sets) {
  std::vector<IdentityRow> rows;
  for (const SketchedPage& s : sets)
    for (std::size_t i = 1; i < s.pages.size(); ++i) rows.push_back({s.pages[i], s.pages[0]});
  std::sort(rows.begin(), rows.end(), FieldLess{});
  return rows;
}

namespace {

// Collective: every rank's capped buckets, sorted (a pair is kept in the first bucket it shares
// that is not one).
std::vector<BucketKey> all_capped_buckets(comm::Transport& transport, const std::vector<BucketKey>& capped) {
  std::vector<BucketKey> all;
  for (auto& part : comm::allgather(transport, capped)) all.insert(all.end(), part.begin(), part.end());
  std::sort(all.begin(), all.end());
  return all;
}

// Compares every pair of an uncapped bucket: calls emit for each pair this rank keeps and, when
// `join`, joins each accepted pair in `joined` (member positions).
template <class Emit>
void compare_members(const Bucket& bucket, const PairRules& rules, const std::vector<BucketKey>& all_capped,
                     std::vector<std::size_t>& joined, Emit& emit, bool join) {
  const std::size_t n = bucket.members.size();
  for (std::size_t x = 0; x < n; ++x) {
    for (std::size_t y = x + 1; y < n; ++y) {
      const Member& a = *bucket.members[x];
      const Member& b = *bucket.members[y];
      const std::uint32_t b_sim = b_similarity(a.sketch, b.sketch);
      const std::uint32_t c_sim = c_similarity(a.sketch, b.sketch);
      if (!accepted(rules, b_sim, c_sim)) continue;
      if (join) {
        const std::size_t rx = member_root(joined, x), ry = member_root(joined, y);
        if (rx != ry) joined[std::max(rx, ry)] = std::min(rx, ry);
      }
      if (kept_earlier(a.sketch, b.sketch, bucket.key.index, rules, all_capped)) continue;
      emit(a, b, b_sim, c_sim, n);
    }
  }
}

// Calls emit(a, b, b_sim, c_sim, bucket size) for every pair this rank keeps; with `forest`, also adds each
// bucket's cluster edges to it (capped buckets included).
template <class Emit>
void compare_buckets(const std::vector<Bucket>& buckets, const PairRules& rules,
                     const std::vector<BucketKey>& all_capped, BucketCaps& caps, Emit& emit,
                     std::vector<ClusterEdge>* forest, bool join_pairs) {
  std::vector<std::size_t> joined;
  for (const Bucket& bucket : buckets) {
    const std::uint64_t n = bucket.members.size();
    if (n < 2) continue;
    if (n > rules.max_bucket && !forest) continue;
    joined.resize(n);
    for (std::size_t x = 0; x < n; ++x) joined[x] = x;
    if (n > rules.max_bucket) {
      caps.unlinked += capped_bucket_joins(bucket, rules, joined);
    } else {
      compare_members(bucket, rules, all_capped, joined, emit, forest != nullptr && join_pairs);
    }
    if (!forest) continue;
    for (std::size_t x = 1; x < n; ++x) {
      const std::size_t root = member_root(joined, x);
      if (root != x) forest->push_back({bucket.members[x]->id, bucket.members[root]->id});
    }
  }
}

}  // namespace

std::vector<PairRow> find_pairs(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                                const PairRules& rules, const shuffle::ShuffleConfig& config, BucketCaps& caps,
                                const std::function<void(const PairVolume&)>& before_comparing,
                                std::vector<ClusterEdge>* edges, std::vector<JaccardCandidate>* candidates,
                                const std::function<void(std::uint64_t)>& before_fetching) {
  if (candidates != nullptr && edges == nullptr) throw std::invalid_argument("find_pairs: candidates need edges");
  const BucketTable table = gather_buckets(transport, sets, set_ids(transport, sets.size()), rules, edges != nullptr,
                                           config, caps, before_fetching);
  const std::vector<Bucket>& buckets = table.buckets;
  const std::vector<BucketKey> all_capped = all_capped_buckets(transport, table.capped);
  const auto compare = [&](auto&& emit, std::vector<ClusterEdge>* forest) {
    compare_buckets(buckets, rules, all_capped, caps, emit, forest, candidates == nullptr);
  };
  // The pairs are counted first when --memory checks them or --max-pairs bounds them: by the size
  // of the bucket that keeps them, so the bound drops the largest buckets' pairs first.
  std::uint64_t pair_limit = ~std::uint64_t{0};  // largest bucket whose pairs are kept
  if (before_comparing || rules.max_pairs != 0) {
    std::map<std::uint64_t, BucketPairs> mine;
    compare(
        [&](const Member& a, const Member& b, std::uint32_t, std::uint32_t, std::uint64_t n) {
          BucketPairs& at = mine[n];
          at.bucket_size = n;
          ++at.pairs;
          at.key_bytes += heap_bytes(a.page) + heap_bytes(b.page);
        },
        nullptr);
    PairVolume volume;
    if (rules.max_pairs != 0) {
      std::vector<BucketPairs> local;
      for (const auto& kv : mine) local.push_back(kv.second);
      const auto all = comm::allgather_concat<BucketPairs>(transport, local);
      pair_limit = kept_bucket_size(all, rules.max_pairs);
      if (transport.rank() == 0)
        for (const BucketPairs& b : all) caps.pairs_not_kept += b.bucket_size > pair_limit ? b.pairs : 0;
    }
    for (const auto& [n, b] : mine) {
      if (n > pair_limit) continue;
      volume.pairs += b.pairs;
      volume.key_bytes += b.key_bytes;
    }
    volume.bucket_bytes = table.held_bytes();
    // joined and group (a std::size_t each), keyed (two), left_out and component (capped_bucket_joins).
    if (edges)
      volume.forest_bytes = table.entries * sizeof(ClusterEdge) + table.largest * (4 * sizeof(std::size_t) + 5);
    if (before_comparing) before_comparing(volume);
  }
  std::vector<PairRow> pairs;
  if (candidates != nullptr) {
    const std::size_t first_edge = edges->size();
    compare(
        [&](const Member& a, const Member& b, std::uint32_t b_sim, std::uint32_t c_sim, std::uint64_t n) {
          JaccardCandidate c{a.id, b.id, static_cast<std::uint8_t>(n <= pair_limit), {}};
          if (c.kept) c.row = {a.page, b.page, b_sim, c_sim, static_cast<std::uint8_t>(same_site(a.page, b.page))};
          candidates->push_back(std::move(c));
        },
        edges);
    // The capped buckets' edges, joined without their pairs, are checked like the pairs. An edge
    // often repeats across a member's buckets (to the same smallest member): it is checked once,
    // as check_jaccard would keep one of a kind anyway.
    std::sort(edges->begin() + static_cast<std::ptrdiff_t>(first_edge), edges->end());
    edges->erase(std::unique(edges->begin() + static_cast<std::ptrdiff_t>(first_edge), edges->end()), edges->end());
    for (std::size_t i = first_edge; i < edges->size(); ++i)
      candidates->push_back({(*edges)[i].node, (*edges)[i].root, 0, {}});
    edges->resize(first_edge);
    edges->shrink_to_fit();
    return pairs;
  }
  compare(
      [&](const Member& a, const Member& b, std::uint32_t b_sim, std::uint32_t c_sim, std::uint64_t n) {
        if (n > pair_limit) return;
        pairs.push_back({a.page, b.page, b_sim, c_sim, static_cast<std::uint8_t>(same_site(a.page, b.page))});
      },
      edges);
  return pairs;
}

}  // namespace crd::neardup
