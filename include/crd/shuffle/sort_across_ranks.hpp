// Sort records across ranks (sample sort): afterwards rank 0 holds the smallest records, rank 1
// the next, …, each slice sorted. The concatenation in rank order is the same sequence for any
// rank count as long as `less` is a strict total order on the records (e.g. ties broken by hash).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/shuffle/byte_codec.hpp"
#include "crd/shuffle/exchange.hpp"

namespace crd::shuffle {

// Collective. encode(const T&, ByteWriter&) and decode(ByteReader&) -> T serialize one record.
template <class T, class Less, class Encode, class Decode>
std::vector<T> sort_across_ranks(comm::Transport& transport, std::vector<T> local, Less less,
                                 Encode encode, Decode decode, std::size_t round_bytes);

}  // namespace crd::shuffle

#include "crd/shuffle/sort_across_ranks_impl.hpp"
