// The --chunk-top / --file-top cut: of the candidate labels spread over their owner ranks, keep the
// N largest by (count descending, hash ascending), identically for any rank count.
//
// The cut count c* (the N-th largest count) is found by bisection on counts, one allreduce per step:
// every candidate counted more than c* is kept; of those counted exactly c*, the ones with the
// smallest hashes fill the remaining places. Owner ranks hold ascending hash ranges (owner_of is
// monotone in the hash) and each rank's candidates ascend by hash, so an exclusive scan of the
// per-rank numbers of tied candidates tells each rank how many of its own ties to keep.
#pragma once

#include <cstdint>
#include <vector>

#include "crd/comm/transport.hpp"

namespace crd::discover {

// Collective. counts: this rank's candidates' counts, in ascending hash order. Returns, parallel to
// counts, whether each is kept. top == 0 keeps all.
std::vector<std::uint8_t> top_cut(comm::Transport& transport, const std::vector<std::uint64_t>& counts,
                                  std::uint64_t top);

}  // namespace crd::discover
