// Best scores of this rank's distinct chunks, each distinct chunk compared with L once over all
// ranks: chunks go to the rank that owns their SHA-1 (owner_of, as in discovery), which sketches
// nothing again but compares each digest it receives once, and answers every sender in the order
// it was asked. A chunk common to many shards (a template) is thus compared once, not once per rank.
#pragma once

#include <cstdint>
#include <vector>

#include "chunk_sketch.hpp"
#include "crd/comm/transport.hpp"
#include "crd/compare/hashing_comparison.hpp"
#include "crd/hash/digest.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::compare {

// Collective. digests[i] and sketches[i] describe this rank's i-th distinct chunk; returns its
// best scores against `labels` (the same on every rank). config: the exchanges' round
// (--shuffle-buffer) and where their traffic is added.
std::vector<BestScores> owner_best_scores(comm::Transport& transport, const std::vector<Digest>& digests,
                                          const std::vector<const ChunkSketch*>& sketches, LabelSketches& labels,
                                          const shuffle::ShuffleConfig& config, CompareProgress* progress = nullptr);

// What owner_best_scores holds at its peak beside its arguments (for --memory): the requests (a
// copy of each sketch), their encoded copies and the owner's received share (taken as even).
// sketch_bytes: the sketches' held_bytes, summed; chunks: how many.
std::uint64_t owner_scores_bytes(std::uint64_t sketch_bytes, std::uint64_t chunks);

}  // namespace crd::compare
