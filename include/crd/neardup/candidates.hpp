// The distributed half of crd neardup, two exchanges (shuffle/reduce_by_key.hpp):
//   1. group_identical: pages by the SHA-1 of their token sequence → identity sets; each set is
//      compared once, as its representative (its smallest page key), with its sketch;
//   2. find_pairs: each representative sends one small entry (bucket, set id) to the owner of each
//      of its buckets — (j, supershingle j) for Alg. B and the combination, (p, simhash piece p) for
//      Alg. C — and each owner fetches the key and sketch of its buckets' members, once per set and
//      rank (src/neardup/buckets.hpp), so it compares every pair in a bucket without a further
//      lookup. A pair sharing several buckets is kept only in the first of them (lowest position)
//      that is not capped: every rank knows the capped buckets (few: each holds over max_bucket
//      pages), so no pair is made twice and none has to be reduced away afterwards.
// A bucket of more than max_bucket pages (boilerplate) yields no pairs; it is counted instead.
// All are collective, and give the same rows on any rank count.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "crd/base/enum_names.hpp"
#include "crd/base/fields.hpp"
#include "crd/base/heap_bytes.hpp"
#include "crd/comm/transport.hpp"
#include "crd/hash/digest.hpp"
#include "crd/neardup/clusters.hpp"
#include "crd/neardup/jaccard_check.hpp"
#include "crd/neardup/neardup_rows.hpp"
#include "crd/neardup/sketch.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::neardup {

enum class Method { MinHash, SimHash, Combined };
constexpr std::array<EnumName<Method>, 3> enum_names(Method) {
  return {{{"minhash", Method::MinHash}, {"simhash", Method::SimHash}, {"combined", Method::Combined}}};
}

struct PairRules {
  Method method = Method::MinHash;
  std::uint32_t min_b_similarity = 2;         // B-similar: at least this many supershingles agree
  std::uint32_t min_c_similarity = 372;       // C-similar: at least this many bits agree
  std::uint32_t combined_c_similarity = 355;  // combined: B-similar and at least this many bits
  std::uint64_t max_bucket = 1000;            // pages in one bucket compared pairwise, at most
  std::uint64_t max_pairs = 0;                // pairs kept, at most (0: all); clusters are complete regardless
  std::uint32_t piece_bits = 32;              // simhash piece width (SketchParams::piece_bits)
  double min_jaccard = 0;                     // keep a candidate when its estimated Jaccard is ≥ this (0: off)
};

// A page as the scan leaves it: its key, the SHA-1 of its token sequence, its sketch. After
// group_identical, one per identity set: `pages` ascending, pages[0] the representative.
// With --min-jaccard, `sample` is its bottom-k Jaccard sample (jaccard_sample.hpp), else empty.
struct SketchedPage {
  Digest identity;
  std::vector<std::string> pages;
  Sketch sketch;
  std::vector<std::uint32_t> sample;
  static constexpr auto fields() {
    return std::tuple(&SketchedPage::identity, &SketchedPage::pages, &SketchedPage::sketch, &SketchedPage::sample);
  }
};

struct BucketCaps {
  std::uint64_t buckets = 0;         // buckets over max_bucket (this rank's; sum over ranks for totals)
  std::uint64_t pages = 0;           // bucket entries in them
  std::uint64_t pairs = 0;           // pairs they would have given
  std::uint64_t unlinked = 0;        // their entries that matched no cluster leader and joined no member
  std::uint64_t pairs_not_kept = 0;  // found but over --max-pairs (the job's, on rank 0)
};

// Collective. Returns this rank's identity sets (ascending by identity digest).
std::vector<SketchedPage> group_identical(comm::Transport& transport, std::vector<SketchedPage> pages,
                                          const shuffle::ShuffleConfig& config);

// The rows of /neardup/identical for this rank's sets (ascending by representative, then page).
std::vector<IdentityRow> identity_rows(const std::vector<SketchedPage>& sets);

// What comparing this rank's buckets holds, known before any pair is made (--memory).
struct PairVolume {
  std::uint64_t bucket_bytes = 0;  // the buckets' entries and their members' keys and sketches (once each)
  std::uint64_t pairs = 0;         // the pairs this rank will make (each pair once over all ranks)
  std::uint64_t key_bytes = 0;     // the heap bytes of their two page keys (heap_bytes)
  // With `edges`: the cluster edges this rank's buckets can give (one per bucket entry at most),
  // and joining its largest bucket (a union–find and, if capped, its groupings' scratch).
  std::uint64_t forest_bytes = 0;
};

// Collective. This rank's share of the pairs (unordered across ranks; sort for output). If
// `before_comparing` is given, the buckets are first swept to count the pairs they give (the
// comparisons run twice), and it is called on every rank with this rank's volume before any pair
// is made: it may throw (a FatalError every rank raises alike) to stop before the pairs exist.
// If `edges` is given, each bucket's cluster edges are added to it (clusters.hpp), capped buckets
// included: the input of label_clusters.
// before_fetching(bytes), if given, is called on every rank with this rank's peak while its buckets'
// members' sketches are fetched, before any is sent; it may throw like before_comparing.
// If `candidates` is given too (--min-jaccard), nothing is final yet: every pair the bands accept
// (once, as above; those over --max-pairs as edges only) and every capped bucket's edge becomes a
// candidate there instead, and nothing is returned or added to `edges`; check_jaccard
// (jaccard_check.hpp) keeps those whose estimate passes. An uncapped bucket then joins no pairs
// itself: its edges are its pairs that pass.
std::vector<PairRow> find_pairs(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                                const PairRules& rules, const shuffle::ShuffleConfig& config, BucketCaps& caps,
                                const std::function<void(const PairVolume&)>& before_comparing = {},
                                std::vector<ClusterEdge>* edges = nullptr,
                                std::vector<JaccardCandidate>* candidates = nullptr,
                                const std::function<void(std::uint64_t)>& before_fetching = {});

// Bytes held, for --memory (docs/memory.md): a sketched page or identity set (its keys and
// sketch words); the bucket entries find_pairs makes of a set (one per bucket it is routed to: the
// bucket and the set's id); a pair.
std::uint64_t held_bytes(const SketchedPage& page);
std::uint64_t bucket_entries_bytes(const SketchedPage& set, const PairRules& rules);
std::uint64_t held_bytes(const PairRow& pair);

// Whether a compared pair is reported under the rules' method.
bool accepted(const PairRules& rules, std::uint32_t b_sim, std::uint32_t c_sim);

}  // namespace crd::neardup
