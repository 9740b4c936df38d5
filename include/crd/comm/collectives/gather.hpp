// gather_to_rank0 and gather_concat_to_rank0: every rank's values on rank 0 (after KaMPIng's
// gather and gatherv). Collective: every rank must call, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "crd/base/value_bytes.hpp"
#include "crd/comm/collectives/gathered.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

// Every rank's value, by rank, on rank 0; empty on the other ranks.
template <class T>
std::vector<T> gather_to_rank0(Transport& transport, const T& value) {
  const detail::Gathered all = detail::gather_bytes_to_rank0(transport, encode_value(value));
  if (transport.rank() != 0) return {};
  return decode_each<T>(all.bytes, all.counts);
}

// Every rank's plain values, concatenated in rank order, on rank 0 (copied as their bytes,
// without the codec); empty on the other ranks.
template <class T>
std::vector<T> gather_concat_to_rank0(Transport& transport, std::span<const T> mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  detail::Gathered all = detail::gather_bytes_to_rank0(transport, std::as_bytes(mine));
  if constexpr (std::is_same_v<T, std::byte>) {
    return std::move(all.bytes);  // no copy
  } else {
    return copy_pods<T>(all.bytes);
  }
}

}  // namespace crd::comm
