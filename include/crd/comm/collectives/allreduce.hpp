// sum, min, max and all_ok: one value reduced over every rank, the same on every rank (after
// KaMPIng's allreduce with its operations). Collective: every rank must call, in the same order.
#pragma once

#include <cstdint>
#include <span>

#include "crd/comm/transport.hpp"

namespace crd::comm {

inline std::uint64_t sum(Transport& transport, std::uint64_t v) {
  transport.allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Sum);
  return v;
}

inline std::uint64_t min(Transport& transport, std::uint64_t v) {
  transport.allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Min);
  return v;
}

inline std::uint64_t max(Transport& transport, std::uint64_t v) {
  transport.allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Max);
  return v;
}

// True on every rank iff `ok` is true on every rank: used to agree before throwing, so no rank
// is left waiting in a collective.
inline bool all_ok(Transport& transport, bool ok) { return max(transport, ok ? 0 : 1) == 0; }

}  // namespace crd::comm
