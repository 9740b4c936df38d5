// The byte-level gathers the typed ones (allgather.hpp, gather.hpp) are built on: every rank's bytes,
// concatenated in rank order, with how many came from each rank. Collective.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "crd/comm/transport.hpp"

namespace crd::comm::detail {

struct Gathered {
  std::vector<std::byte> bytes;       // rank 0's, then rank 1's, …
  std::vector<std::uint64_t> counts;  // counts[r]: bytes from rank r
};

// On every rank.
inline Gathered allgather_bytes(Transport& transport, std::span<const std::byte> mine) {
  Gathered g;
  transport.allgatherv(mine, g.bytes, g.counts);
  return g;
}

// On rank 0; empty on the other ranks.
inline Gathered gather_bytes_to_rank0(Transport& transport, std::span<const std::byte> mine) {
  std::vector<std::uint64_t> to_each(static_cast<std::size_t>(transport.size()), 0);
  to_each[0] = mine.size();
  Gathered g;
  transport.alltoallv(mine, to_each, g.bytes, g.counts);
  return g;
}

}  // namespace crd::comm::detail
