// broadcast_from_rank0: rank 0's value on every rank (after KaMPIng's bcast). Collective: every
// rank must call, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crd/base/value_bytes.hpp"
#include "crd/comm/collectives/gathered.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

// Rank 0's value on every rank; the other ranks' argument is ignored.
template <class T>
T broadcast_from_rank0(Transport& transport, const T& value) {
  const std::vector<std::byte> mine = transport.rank() == 0 ? encode_value(value) : std::vector<std::byte>{};
  return decode_value<T>(detail::allgather_bytes(transport, mine).bytes);
}

}  // namespace crd::comm
