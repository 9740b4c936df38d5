// OwnerTally and the three exchanges that build and use it, each one shuffle::reduce_by_key:
//   1. exchange_counts: every rank sends each distinct local hash (count, length) to its owner
//      (owner_of: leading hash bits), which sums them — the global count lives on one rank only.
//   2. notify_reporters: the owner tells each rank that reported a selected (labeled) hash its
//      tag, so each rank learns exactly the labeled hashes of its own shard — the join of
//      discovery and detection, with no replication.
//   3. gather_annotations: ranks send, for selected hashes, their first page key and the sample;
//      the owner keeps the smallest key, so the choice does not depend on the rank count.
// All three are collective.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/shuffle/exchange.hpp"
#include "crd/base/fields.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::discover {

// One hash's count and length: what a rank tells the hash's owner, and a row of the count tables
// `discover --keep-counts` writes and `crd merge` reads (/discovery/chunk_counts, file_counts).
struct CountRow {
  Digest hash;
  std::uint64_t count = 0;
  std::uint64_t length = 0;
  static constexpr auto fields() {
    return std::tuple(field("hash", &CountRow::hash), field("count", &CountRow::count),
                      field("length", &CountRow::length));
  }
};

// The hashes this rank owns, ascending, as the count exchange leaves them (its rows, not a copy in
// columns, which would cost a pass over every row); an owner id is an index into them.
// The rows are also the owner count tables `--keep-counts` writes (the rank order is the hash order).
struct OwnerTally {
  std::vector<CountRow> rows;
  shuffle::Contributors reporters;  // the ranks that reported each hash

  std::size_t distinct() const { return rows.size(); }
  const Digest& digest(std::size_t id) const { return rows[id].hash; }
  std::uint64_t count(std::size_t id) const { return rows[id].count; }
  std::uint64_t length(std::size_t id) const { return rows[id].length; }
};

struct ShuffleTotals {
  std::uint64_t rounds = 0;
  std::uint64_t bytes_sent = 0;
  void add(const shuffle::ExchangeStats& s) {
    rounds += s.rounds;
    bytes_sent += s.bytes_sent;
  }
};

OwnerTally exchange_counts(comm::Transport& transport, const LocalTally& local, std::size_t round_bytes,
                           ShuffleTotals& totals);

// Collective: rows from any rank (several rows of one hash allowed) summed at the hashes' owners
// (owner_of, as exchange_counts). crd merge counts the inputs' count tables through this.
OwnerTally reduce_counts(comm::Transport& transport, std::vector<CountRow> rows, std::size_t round_bytes,
                         ShuffleTotals& totals);

struct TaggedId {
  std::uint32_t local_id = 0;
  std::uint64_t tag = 0;
};
inline constexpr std::uint64_t kNotSelected = ~std::uint64_t{0};

// tags[owner id] != kNotSelected marks the hashes to announce, with a value (e.g. the label id).
// Returns, on each rank, its local ids that were announced with their tags, ascending by id.
std::vector<TaggedId> notify_reporters(comm::Transport& transport, const OwnerTally& owned,
                                       const std::vector<std::uint64_t>& tags, const LocalTally& local,
                                       std::size_t round_bytes, ShuffleTotals& totals);

struct Annotation {
  std::string sample;
  std::string sample_url;
};

// A page key and sample of one hash as some rank knows it; the owner keeps the smallest key.
struct AnnotationRecord {
  Digest digest;
  std::string sample_url;
  std::string sample;
  static constexpr auto fields() {
    return std::tuple(&AnnotationRecord::digest, &AnnotationRecord::sample_url, &AnnotationRecord::sample);
  }
};

// Collective: records from any rank reduced at the owners (smallest sample_url per hash). Returns
// one annotation per entry of `ids` (owner ids, ascending), parallel to it: records of other hashes
// are dropped, ids without a record stay empty.
std::vector<Annotation> reduce_annotations(comm::Transport& transport, const OwnerTally& owned,
                                           const std::vector<std::uint32_t>& ids, std::vector<AnnotationRecord> records,
                                           std::size_t round_bytes, ShuffleTotals& totals);

// The annotations of `ids` (owner ids, ascending, the ones announced), parallel to it.
std::vector<Annotation> gather_annotations(comm::Transport& transport, const OwnerTally& owned,
                                           const std::vector<std::uint32_t>& ids,
                                           const std::vector<TaggedId>& selected_local, const LocalTally& local,
                                           const PageKeys& keys, std::size_t round_bytes, ShuffleTotals& totals);

}  // namespace crd::discover
