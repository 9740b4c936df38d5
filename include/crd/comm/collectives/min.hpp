// min: the smallest value over every rank, the same on every rank (KaMPIng's allreduce with min).
// Collective: every rank must call, in the same order.
#pragma once

#include <cstdint>

#include "crd/comm/collectives/reduced.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

inline std::uint64_t min(Transport& transport, std::uint64_t v) { return detail::reduced(transport, v, ReduceOp::Min); }

}  // namespace crd::comm
