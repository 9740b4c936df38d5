// The one-value reduction sum, min and max are built on (sum.hpp, min.hpp, max.hpp). Collective.
#pragma once

#include <cstdint>
#include <span>

#include "crd/comm/transport.hpp"

namespace crd::comm::detail {

// `v` reduced by `op` over every rank, on every rank.
inline std::uint64_t reduced(Transport& transport, std::uint64_t v, ReduceOp op) {
  transport.allreduce(std::span<std::uint64_t>(&v, 1), op);
  return v;
}

}  // namespace crd::comm::detail
