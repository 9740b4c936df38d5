// allgather and allgather_concat: every rank's values on every rank (after
// KaMPIng's allgather and allgatherv). Collective: every rank must call, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "crd/base/value_bytes.hpp"
#include "crd/comm/collectives/gathered.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

// Every rank's value, by rank, on every rank.
template <class T>
std::vector<T> allgather(Transport& transport, const T& value) {
  const detail::Gathered all = detail::allgather_bytes(transport, encode_value(value));
  return decode_each<T>(all.bytes, all.counts);
}

// Every rank's plain values, concatenated in rank order (ranks may give different numbers of
// them): copied as their bytes, without the codec.
template <class T>
std::vector<T> allgather_concat(Transport& transport, std::span<const T> mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  return copy_pods<T>(detail::allgather_bytes(transport, std::as_bytes(mine)).bytes);
}

}  // namespace crd::comm
