// The buckets of crd neardup at their owners, with their members' sketches (candidates.hpp compares
// them). Two steps through the shuffle, both in bounded rounds:
//   1. route: each identity set sends one entry per bucket — the bucket and the set's id, 20 bytes
//      on the wire — to the bucket's owner (reduce_by_key keyed by the entry itself);
//   2. fetch: each owner asks the owner of each member's set (IdOwner) for its representative's key
//      and sketch, once per set and rank however many of the rank's buckets hold it, and only for
//      buckets of two or more members (a lone member is compared with nothing).
// A page's sketch thus travels once to each rank that compares it, where it used to travel with
// every bucket entry (m′ copies of m′ + b / 64 words: 24 copies of 240 bytes with the high-recall
// preset, most of the job's memory). A bucket's comparisons stay where they were, at its owner:
// a capped bucket's groupings read each member's other supershingles, and which leader a member is
// compared with depends on the comparisons before it, so the sketches come to the bucket.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "crd/base/uint128.hpp"
#include "crd/comm/transport.hpp"
#include "crd/neardup/candidates.hpp"
#include "crd/text/fingerprint.hpp"

namespace crd::neardup {

// A bucket: which sketch position (supershingle j or simhash piece p) and its value there.
struct BucketKey {
  std::uint64_t value = 0;
  std::uint32_t index = 0;
  static constexpr auto fields() { return std::tuple(&BucketKey::value, &BucketKey::index); }
  auto operator<=>(const BucketKey&) const = default;
};

// Owners spread by a mix of the key: bucket values are not uniform in their leading bits, so they
// are hashed before scaling onto the ranks.
inline int bucket_owner(const BucketKey& k, int nranks) {
  return scale_to_rank(text::mix64(k.value ^ text::mix64(k.index)), nranks);
}

// A representative as its buckets' owner holds it: its key, whole sketch and set id (clusters.hpp).
struct Member {
  std::string page;
  Sketch sketch;
  std::uint64_t id = 0;
  static constexpr auto fields() { return std::tuple(&Member::page, &Member::sketch, &Member::id); }
};

// One bucket of two or more members at its owner, its members ascending by page key.
struct Bucket {
  BucketKey key;
  std::span<const Member* const> members;
};

// What a rank owns of the buckets: those of two or more members whose sketches it fetched, in key
// order (the capped ones only when asked for); the sketches, once each, ascending by id.
struct BucketTable {
  std::vector<Bucket> buckets;
  std::vector<const Member*> slots;  // the buckets' members, bucket after bucket
  std::vector<Member> sketches;
  std::vector<BucketKey> capped;     // this rank's buckets over max_bucket, ascending
  std::uint64_t entries = 0;         // bucket entries this rank owns, lone members included
  std::uint64_t largest = 0;         // members of its largest bucket
  std::uint64_t held_bytes() const;  // what the table holds (--memory)
};

// The buckets a sketch is routed to: one per supershingle, or one per simhash piece (Alg. C).
std::uint32_t bucket_count(const Sketch& sketch, const PairRules& rules);

// The value a sketch has at bucket position i: supershingle i, or simhash piece i (Alg. C).
std::uint64_t bucket_value(const Sketch& s, std::uint32_t i, const PairRules& rules);

// The heap bytes of a sketch's words.
std::uint64_t sketch_bytes(const Sketch& s);

// Bytes one bucket entry holds on its way to its owner (--memory).
std::uint64_t entry_bytes();

// Collective. `sets`: this rank's identity sets, `offsets`: set_ids. Counts this rank's capped
// buckets in `caps`; `with_capped`: fetch the sketches of capped buckets too (for their cluster
// edges). before_fetching(bytes), if given, is called on every rank with this rank's peak of the
// fetch (the entries, the requests, the replies sent and received) before any sketch is sent; it
// may throw (a FatalError every rank raises alike).
BucketTable gather_buckets(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                           const std::vector<std::uint64_t>& offsets, const PairRules& rules, bool with_capped,
                           const shuffle::ShuffleConfig& config, BucketCaps& caps,
                           const std::function<void(std::uint64_t)>& before_fetching);

}  // namespace crd::neardup
