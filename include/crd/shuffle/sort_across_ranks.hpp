// Sort records across ranks (sample sort): afterwards rank 0 holds the smallest records, rank 1
// the next, …, each slice sorted. The concatenation in rank order is the same sequence for any
// rank count as long as `less` is a strict total order on the records (e.g. ties broken by hash).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/byte_codec.hpp"
#include "crd/shuffle/exchange.hpp"
#include "crd/base/fields.hpp"

namespace crd::shuffle {

// Collective. encode(const T&, ByteWriter&) and decode(ByteReader&) -> T serialize one record.
template <class T, class Less, class Encode, class Decode>
std::vector<T> sort_across_ranks(comm::Transport& transport, std::vector<T> local, Less less,
                                 Encode encode, Decode decode, std::size_t round_bytes);

// The same for a record that declares its fields (fields.hpp): encoded from that list.
template <class T, class Less>
  requires HasFields<T>
std::vector<T> sort_across_ranks(comm::Transport& transport, std::vector<T> local, Less less, std::size_t round_bytes) {
  return sort_across_ranks(
      transport, std::move(local), less, [](const T& r, ByteWriter& w) { write_fields(w, r); },
      [](ByteReader& r) { return read_fields<T>(r); }, round_bytes);
}

}  // namespace crd::shuffle

#include "crd/shuffle/sort_across_ranks_impl.hpp"
