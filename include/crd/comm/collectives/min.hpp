// min: the smallest value over every rank, the same on every rank (KaMPIng's allreduce with min).
// Collective: every rank must call, in the same order.
#pragma once

#include <cstdint>
#include <span>

#include "crd/comm/transport.hpp"

namespace crd::comm {

inline std::uint64_t min(Transport& transport, std::uint64_t v) {
  transport.allreduce(std::span<std::uint64_t>(&v, 1), ReduceOp::Min);
  return v;
}

}  // namespace crd::comm
