// sum: values added over every rank, the same on every rank (KaMPIng's allreduce with plus).
// Collective: every rank must call, in the same order.
#pragma once

#include <cstdint>
#include <span>

#include "crd/comm/collectives/reduced.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

inline std::uint64_t sum(Transport& transport, std::uint64_t v) { return detail::reduced(transport, v, ReduceOp::Sum); }

// Element-wise, in place: values[i] becomes the sum of every rank's values[i]. Every rank passes
// as many values.
inline void sum(Transport& transport, std::span<std::uint64_t> values) { transport.allreduce(values, ReduceOp::Sum); }

}  // namespace crd::comm
