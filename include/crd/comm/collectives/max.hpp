// max: the largest value over every rank, the same on every rank (KaMPIng's allreduce with max).
// Collective: every rank must call, in the same order.
#pragma once

#include <cstdint>
#include <span>

#include "crd/comm/collectives/reduced.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

inline std::uint64_t max(Transport& transport, std::uint64_t v) { return detail::reduced(transport, v, ReduceOp::Max); }

// Element-wise, in place: values[i] becomes the largest of every rank's values[i]. Every rank
// passes as many values (counts as integers, or seconds).
inline void max(Transport& transport, std::span<std::uint64_t> values) { transport.allreduce(values, ReduceOp::Max); }
inline void max(Transport& transport, std::span<double> values) { transport.allreduce(values, ReduceOp::Max); }

}  // namespace crd::comm
