// all_ok: whether a condition holds on every rank. Collective: every rank must call, in the same order.
#pragma once

#include "crd/comm/collectives/max.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

// True on every rank iff `ok` is true on every rank: used to agree before throwing, so no rank
// is left waiting in a collective.
inline bool all_ok(Transport& transport, bool ok) { return max(transport, ok ? 0 : 1) == 0; }

}  // namespace crd::comm
