// The pre-phase of reduce_by_key (Thrill's ReducePrePhase): this rank's records, already sorted
// and folded (key_order.hpp), are routed to their owners' buckets, each encoded from its field list
// (base/fields.hpp). Local work: the buckets are sent afterwards by exchange().
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "crd/base/byte_codec.hpp"
#include "crd/base/fields.hpp"
#include "crd/shuffle/exchange.hpp"

namespace crd::shuffle::detail {

// Where each record goes, counted before anything is written: per_dest sizes the owners' runs
// (they learn it first), framed each other destination's bucket (one allocation each).
struct Routes {
  std::vector<int> dest;                // per record: its owner
  std::vector<std::uint64_t> per_dest;  // records per destination
  std::vector<std::size_t> framed;      // variable-size records: framed bytes per other destination
};

template <class Record, class KeyOf, class Owner>
Routes route_records(const std::vector<Record>& records, KeyOf& key_of, Owner& owner, int nranks, std::size_t me,
                     const Buckets& buckets) {
  const auto n = static_cast<std::size_t>(nranks);
  Routes routes{std::vector<int>(records.size()), std::vector<std::uint64_t>(n, 0), std::vector<std::size_t>(n, 0)};
  for (std::size_t i = 0; i < records.size(); ++i) {
    const int dest = owner(key_of(records[i]), nranks);
    if (dest < 0 || dest >= nranks) throw std::out_of_range("reduce_by_key: owner outside the ranks");
    routes.dest[i] = dest;
    const auto d = static_cast<std::size_t>(dest);
    ++routes.per_dest[d];
    if constexpr (fixed_encoded_size<Record>() == 0)
      if (d != me) routes.framed[d] += buckets.framed_bytes(encoded_size(records[i]));
  }
  return routes;
}

// Writes the records for other ranks into their buckets: records of one size on every rank (their
// fields are all PODs) unframed, straight into one block per destination. This rank's own records
// never pass through the codec: they stay in `records`, moved down over those sent (a run of their
// own, half of a 2-rank job's records, was as many fresh pages, faulted in, and a copy).
template <class Record>
void fill_buckets(std::vector<Record>& records, Routes& routes, Buckets& buckets, std::size_t me) {
  constexpr std::size_t kFixed = fixed_encoded_size<Record>();
  const std::size_t n = routes.per_dest.size();
  std::vector<std::byte*> block(n, nullptr);  // fixed records: where dest's next record goes
  for (std::size_t d = 0; d < n; ++d) {
    if (d == me) continue;
    if constexpr (kFixed != 0) {
      block[d] = buckets.append_records(static_cast<int>(d), static_cast<std::size_t>(routes.per_dest[d]));
    } else {
      buckets.reserve(static_cast<int>(d), routes.framed[d]);
    }
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto d = static_cast<std::size_t>(routes.dest[i]);
    if (d == me) {
      if (kept != i) records[kept] = std::move(records[i]);
      ++kept;
      continue;
    }
    if constexpr (kFixed != 0) {
      SpanWriter w(block[d]);
      write_value(w, records[i]);
      block[d] += kFixed;
    } else {
      SpanWriter w(buckets.append(routes.dest[i], encoded_size(records[i])));
      write_value(w, records[i]);
    }
  }
  records.erase(records.begin() + static_cast<std::ptrdiff_t>(kept), records.end());
  std::vector<int>().swap(routes.dest);
}

}  // namespace crd::shuffle::detail
