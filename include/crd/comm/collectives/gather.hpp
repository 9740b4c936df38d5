// gather_to_rank0 and gather_concat_to_rank0: every rank's values on rank 0 (after KaMPIng's
// gather and gatherv). Collective: every rank must call, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "crd/base/value_bytes.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

namespace detail {
// Every rank's bytes, concatenated in rank order, on rank 0 (counts[r] from rank r); empty on the
// other ranks.
inline void gather_bytes_to_rank0(Transport& transport, std::span<const std::byte> mine, std::vector<std::byte>& all,
                                  std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> to_each(static_cast<std::size_t>(transport.size()), 0);
  to_each[0] = mine.size();
  transport.alltoallv(mine, to_each, all, counts);
}
}  // namespace detail

// Every rank's value, by rank, on rank 0; empty on the other ranks.
template <class T>
std::vector<T> gather_to_rank0(Transport& transport, const T& value) {
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  detail::gather_bytes_to_rank0(transport, encode_value(value), all, counts);
  if (transport.rank() != 0) return {};
  return decode_each<T>(all, counts);
}

// Every rank's plain values, concatenated in rank order, on rank 0 (copied as their bytes,
// without the codec); empty on the other ranks.
template <class T>
std::vector<T> gather_concat_to_rank0(Transport& transport, std::span<const T> mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  detail::gather_bytes_to_rank0(transport, std::as_bytes(mine), all, counts);
  if constexpr (std::is_same_v<T, std::byte>) {
    return all;  // no copy
  } else {
    return copy_pods<T>(all);
  }
}

}  // namespace crd::comm
