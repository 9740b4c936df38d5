// The neighborhood rule of flagged pages (--neighborhood-min-flagged; docs/winnow.md, "Diluted
// mirrors: the share of flagged pages"). A mirror whose pages are diluted by added text has most of
// its pages flagged by the page rule, yet a mean containment below the badness threshold. Each
// unrelated page is flagged with probability at most α (the page rule's level), so k flagged of a
// neighborhood's n scored pages is Binomial(n, α) at most if they are independent; a neighborhood is
// flagged when P[Binomial(n, α) ≥ k] < α and k ≥ the minimum, so one or two false pages never flag it.
#pragma once

#include <cstdint>

#include "crd/detect/detection.hpp"

namespace crd::detect {

// The page rule's false-positive level per page: α of binomial or betabinomial, 2α under the
// combined rule (combined_level); 0 for a rule without one (auto, robust, a number).
double page_level(const DetectOptions& options);

class FlaggedShare {
 public:
  // min_flagged 0: off (improbable is always false).
  FlaggedShare(std::uint64_t min_flagged, double level) : min_flagged_(min_flagged), level_(level) {}

  // Whether `flagged` of `pages` is improbable for unrelated pages at the level.
  bool improbable(std::uint64_t pages, std::uint64_t flagged) const;

 private:
  std::uint64_t min_flagged_;
  double level_;
};

}  // namespace crd::detect
