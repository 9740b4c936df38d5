// Connected components of the near-duplicate graph and each cluster's representative (see clusters.hpp).
#include "crd/neardup/clusters.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "crd/base/heap_bytes.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/neardup/candidates.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"

namespace crd::neardup {
namespace {

// Union–find whose root is always the smallest id of its set, so roots do not depend on the
// order in which edges are joined.
template <class Parent>
std::uint64_t find_root(Parent& parent, std::uint64_t a) {
  while (parent[a] != a) a = parent[a] = parent[parent[a]];
  return a;
}

template <class Parent>
void join(Parent& parent, std::uint64_t a, std::uint64_t b) {
  a = find_root(parent, a);
  b = find_root(parent, b);
  if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

// A map-backed parent array for the ids one rank's edges touch.
struct SparseParent {
  std::unordered_map<std::uint64_t, std::uint64_t> map;
  std::uint64_t& operator[](std::uint64_t a) { return map.try_emplace(a, a).first->second; }
};

// An identity set's pages on their way to the owner of their cluster's root.
struct RootPages {
  std::uint64_t root = 0;
  std::vector<std::string> pages;
  static constexpr auto fields() { return std::tuple(&RootPages::root, &RootPages::pages); }
};

// Rank 0: the union of every rank's forest; returns (node, root) for every node an edge touched.
std::vector<ClusterEdge> join_on_rank0(std::vector<ClusterEdge> all, std::uint64_t nsets) {
  std::vector<std::uint64_t> parent(nsets);
  for (std::uint64_t i = 0; i < nsets; ++i) parent[i] = i;
  std::vector<std::uint64_t> touched;
  touched.reserve(2 * all.size());
  for (const ClusterEdge& e : all) {
    join(parent, e.node, e.root);
    touched.push_back(e.node);
    touched.push_back(e.root);
  }
  all = {};
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  std::vector<ClusterEdge> labels;
  labels.reserve(touched.size());
  for (const std::uint64_t id : touched) labels.push_back({id, find_root(parent, id)});
  return labels;
}

}  // namespace

std::vector<std::uint64_t> set_ids(comm::Transport& transport, std::uint64_t local_sets) {
  const auto counts = comm::allgather(transport, local_sets);
  std::vector<std::uint64_t> offsets(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) offsets[r + 1] = offsets[r] + counts[r];
  return offsets;
}

std::uint64_t cluster_pages_bytes(const SketchedPage& set) {
  // The record, each page (moved into its row), and each row's copy of the representative's key.
  std::uint64_t bytes = sizeof(RootPages);
  for (const std::string& page : set.pages)
    bytes += sizeof(std::string) + heap_bytes(page) + sizeof(ClusterRow) + heap_bytes(set.pages.front());
  return bytes;
}

std::uint64_t join_bytes(std::uint64_t all_sets, std::uint64_t all_edges) {
  // The parent array, the gathered edges (as received and as sorted: kept by reduce_by_key), and
  // the touched ids and labels made of them.
  return all_sets * sizeof(std::uint64_t) + all_edges * (2 * sizeof(ClusterEdge) + 2 * sizeof(std::uint64_t)) +
         2 * all_edges * sizeof(ClusterEdge);
}

Clusters label_clusters(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                        const std::vector<std::uint64_t>& offsets, std::vector<ClusterEdge> edges,
                        const shuffle::ShuffleConfig& config) {
  const int me = transport.rank();
  const std::uint64_t first = offsets[static_cast<std::size_t>(me)];
  const std::uint64_t nsets = offsets.back();

  // This rank's forest, contracted: one edge per touched id that is not its component's root.
  {
    SparseParent parent;
    for (const ClusterEdge& e : edges) join(parent, e.node, e.root);
    edges.clear();
    std::vector<std::uint64_t> ids;
    ids.reserve(parent.map.size());
    for (const auto& kv : parent.map) ids.push_back(kv.first);
    for (const std::uint64_t id : ids) {
      const std::uint64_t root = find_root(parent, id);
      if (root != id) edges.push_back({id, root});
    }
    edges.shrink_to_fit();
  }
  Clusters out;
  const auto key_of = [](const ClusterEdge& e) { return e; };
  const auto keep_one = [](ClusterEdge&, const ClusterEdge&) {};
  auto gathered = shuffle::reduce_by_key(
      transport, std::move(edges), key_of, [](const ClusterEdge&, int) { return 0; }, keep_one, config);
  out.edges = comm::sum(transport, gathered.size());
  std::vector<ClusterEdge> labels;
  if (me == 0) labels = join_on_rank0(std::move(gathered), nsets);
  gathered = {};
  // Every touched id learns its root from its owner's copy (roots included, labelled by themselves).
  const IdOwner owner{&offsets};
  labels = shuffle::reduce_by_key(
      transport, std::move(labels), [](const ClusterEdge& e) { return e.node; }, owner,
      [](ClusterEdge&, const ClusterEdge&) {}, config);

  // Each set of a cluster (touched, or several identical pages) sends its pages to its root's owner.
  std::vector<RootPages> members;
  std::size_t at = 0;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const std::uint64_t id = first + i;
    while (at < labels.size() && labels[at].node < id) ++at;
    const bool touched = at < labels.size() && labels[at].node == id;
    if (!touched && sets[i].pages.size() < 2) continue;
    members.push_back({touched ? labels[at].root : id, sets[i].pages});
  }
  labels = {};
  auto groups = shuffle::group_by_key(
      transport, std::move(members), [](const RootPages& r) { return r.root; }, owner, &RootPages::pages, config);
  for (RootPages& g : groups) {
    // Sorted by group_by_key: the smallest key is the representative, the page a dedup keeps.
    const std::string representative = g.pages.front();
    out.representatives.push_back({representative, g.pages.size()});
    for (std::string& page : g.pages) out.rows.push_back({std::move(page), representative});
  }
  groups = {};
  out.rows = shuffle::sort_across_ranks(transport, std::move(out.rows), FieldLess{}, config.round_bytes);
  out.representatives =
      shuffle::sort_across_ranks(transport, std::move(out.representatives), FieldLess{}, config.round_bytes);
  return out;
}

}  // namespace crd::neardup
