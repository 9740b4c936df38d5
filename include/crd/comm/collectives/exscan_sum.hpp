// exscan_sum: the sum of a value over the ranks before this one (KaMPIng's exscan with plus): where
// this rank's rows start in a table every rank writes part of. Collective: every rank must call.
#pragma once

#include <cstdint>

#include "crd/comm/transport.hpp"

namespace crd::comm {

// Sum of `value` over ranks 0 … rank − 1 (0 on rank 0).
inline std::uint64_t exscan_sum(Transport& transport, std::uint64_t value) { return transport.exscan_sum(value); }

}  // namespace crd::comm
