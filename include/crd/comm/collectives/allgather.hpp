// allgather, allgather_concat and first_error: every rank's values on every rank (after
// KaMPIng's allgather and allgatherv). Collective: every rank must call, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
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

// The first non-empty `my_error` by rank, as "rank R: …", identical on every rank; "" if every
// rank passed "". How an error one rank met becomes one message all ranks throw alike.
inline std::string first_error(Transport& transport, std::string_view my_error) {
  const detail::Gathered all =
      detail::allgather_bytes(transport, std::as_bytes(std::span<const char>(my_error.data(), my_error.size())));
  std::size_t at = 0;
  for (std::size_t r = 0; r < all.counts.size(); ++r) {
    if (all.counts[r] > 0)
      return "rank " + std::to_string(r) + ": " +
             std::string(reinterpret_cast<const char*>(all.bytes.data()) + at, all.counts[r]);
    at += all.counts[r];
  }
  return {};
}

}  // namespace crd::comm
