// crd neardup --min-jaccard: each candidate the bands give — a pair, or an edge by which a capped
// bucket joins a cluster — is kept only when the estimated Jaccard of its two pages' shingle sets
// (jaccard_sample.hpp) is at least the threshold. The samples stay with their identity sets, on the
// rank that holds each set (clusters.hpp's ids and IdOwner), and the candidates go to them: a join
// in two exchanges, not a broadcast.
//   1. each candidate is routed to the owner of its first set (group_by_key by that id);
//   2. that owner sends the first set's sample once per (set, owner of a second set), with the
//      candidates for that rank; the second set's owner estimates each candidate's Jaccard there.
// A sample travels at most once per rank it has candidates on, so the job holds no more than its
// candidates plus one copy of each sample per rank. Collective; the candidates kept are the same
// for any rank count and input order, and the exchanges run in bounded rounds (ShuffleConfig).
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/neardup/clusters.hpp"
#include "crd/neardup/neardup_rows.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::neardup {

struct SketchedPage;

// A candidate of the near-duplicate graph: two identity sets (their ids, set_ids) and, when it is
// a pair for /neardup/pairs (`kept`), its row; otherwise an edge for the clusters only.
struct JaccardCandidate {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  std::uint8_t kept = 0;
  PairRow row;
  static constexpr auto fields() {
    return std::tuple(&JaccardCandidate::a, &JaccardCandidate::b, &JaccardCandidate::kept, &JaccardCandidate::row);
  }
  bool operator<(const JaccardCandidate& o) const { return std::tie(a, b, kept) < std::tie(o.a, o.b, o.kept); }
};

struct CheckedCandidates {
  std::vector<PairRow> pairs;       // the kept pairs that passed (unordered across ranks)
  std::vector<ClusterEdge> edges;   // every candidate that passed, as a cluster edge
  std::uint64_t dropped_pairs = 0;  // this rank's pairs below the threshold
  std::uint64_t dropped_edges = 0;  // this rank's cluster-only edges below it
};

// Collective. `sets`: this rank's identity sets with their samples (taken with sample size k);
// `offsets`: set_ids.
CheckedCandidates check_jaccard(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                                const std::vector<std::uint64_t>& offsets, std::vector<JaccardCandidate> candidates,
                                double min_jaccard, std::uint32_t k, const shuffle::ShuffleConfig& config);

// Bytes a candidate holds (--memory).
std::uint64_t held_bytes(const JaccardCandidate& c);

}  // namespace crd::neardup
