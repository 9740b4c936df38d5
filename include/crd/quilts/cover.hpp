// sources(d), seed 003 §2: the greedy set cover of d's patch grams by other documents. Pure, one
// document at a time; the pipeline calls it at the document's owner rank.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "crd/quilts/records.hpp"

namespace crd::quilts {

struct Source {
  std::uint64_t doc = 0;
  std::uint64_t covered = 0;  // patch grams it covered that the sources before it had not
  bool operator==(const Source&) const = default;
};

struct Cover {
  std::uint64_t patch_grams = 0;
  std::vector<Source> sources;  // in the order the greedy algorithm took them
};

struct CoverRules {
  std::uint32_t m = 50;           // patch gram: 2 ≤ df ≤ m
  double min_source_share = 0.0;  // φ: stop before a source that would cover < φ·|patch grams|
  bool foreign = false;           // sources must lie on another server than the document
};

// self/self_server: the document; mentions: the other holders of its grams, ascending by (gram,
// other), any df.
// Repeatedly takes the document covering the most patch grams not yet covered (ties: the
// smallest document id), until all are covered or, with φ > 0, the best covers too few. A patch
// gram that only same-server documents hold (foreign) stays uncovered.
Cover greedy_cover(std::uint64_t self_server, std::span<const Mention> mentions, const CoverRules& rules);

}  // namespace crd::quilts
