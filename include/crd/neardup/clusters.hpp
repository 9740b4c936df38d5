// Clusters of near-duplicate pages without all their pairs: the connected components of the
// near-duplicate graph, found from O(pages) edges instead of O(pages²) pairs.
//   - Every identity set has a global id: its position in the job's identity-digest order (the sets
//     are owned by digest prefix, so rank r holds one ascending range; set_ids gives its start).
//   - find_pairs (candidates.hpp) emits, per bucket, a forest instead of the pairs: in a bucket it
//     compares (≤ max_bucket members), each member's edge to the smallest member it is joined to
//     by accepted pairs; in a capped bucket, the same edges, with the members joined without their
//     pairs: grouped by the other supershingles they agree on (under Broder's rule a group is a
//     clique of B-similar pages, and every B-similar pair of the bucket is in one), each group
//     joined through at most kClusterLeaders "leaders" (members that matched no earlier leader).
//     So n near-identical pages in one bucket cost n − 1 edges and about n comparisons per grouping,
//     and any bucket at most n · kClusterLeaders per grouping (docs/neardup.md, "Clusters").
//   - label_clusters contracts a rank's edges locally (union–find), gathers the forests to rank 0
//     (8 bytes per identity set of the job, plus the edges; --memory counts them), joins them there
//     (union–find by smallest id), sends each set its root, and groups the sets' pages by root: the
//     smallest page key of a cluster is its representative, the page to keep.
// Collective; the rows are the same for any rank count and input order.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <tuple>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/neardup/neardup_rows.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::neardup {

struct SketchedPage;

// Leaders a group of a capped bucket compares each member with, at most: a group of n pages costs at
// most n · kClusterLeaders comparisons; a member that matches none of them (the leaders are full)
// and joins no other member of the bucket is linked through its other buckets only (counted:
// /neardup@unlinked_entries).
inline constexpr std::uint32_t kClusterLeaders = 16;

// How a cluster's page to keep is chosen, as /neardup@representative_rule states it.
inline constexpr const char* kRepresentativeRule = "smallest page key";

// An edge of the near-duplicate graph between two identity sets (global ids).
struct ClusterEdge {
  std::uint64_t node = 0;
  std::uint64_t root = 0;
  static constexpr auto fields() { return std::tuple(&ClusterEdge::node, &ClusterEdge::root); }
  auto operator<=>(const ClusterEdge&) const = default;
};

// Collective. The global id range of every rank's identity sets: rank r's sets are ids
// offsets[r] … offsets[r + 1] − 1, in their order (size nranks + 1).
std::vector<std::uint64_t> set_ids(comm::Transport& transport, std::uint64_t local_sets);

// The owner of a set id: the rank holding that identity set (`offsets`: set_ids).
struct IdOwner {
  const std::vector<std::uint64_t>* offsets;
  int operator()(std::uint64_t id, int nranks) const {
    const auto it = std::upper_bound(offsets->begin(), offsets->begin() + nranks + 1, id);
    return static_cast<int>(it - offsets->begin()) - 1;
  }
};

struct Clusters {
  std::vector<ClusterRow> rows;                    // this rank's share, sorted by page across ranks
  std::vector<RepresentativeRow> representatives;  // sorted by representative across ranks
  std::uint64_t edges = 0;                         // the job's edges after contraction (rank 0's join)
};

// Collective. `sets`: this rank's identity sets (group_identical's order); `offsets`: set_ids;
// `edges`: this rank's edges from find_pairs.
Clusters label_clusters(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                        const std::vector<std::uint64_t>& offsets, std::vector<ClusterEdge> edges,
                        const shuffle::ShuffleConfig& config);

// Bytes a set's pages take on their way to their cluster's root, and as the cluster rows made of
// them (--memory; the sketch and sample stay behind).
std::uint64_t cluster_pages_bytes(const SketchedPage& set);

// Bytes rank 0 holds to join the forests (--memory): its parent array and the gathered edges.
std::uint64_t join_bytes(std::uint64_t all_sets, std::uint64_t all_edges);

}  // namespace crd::neardup
