// The neighborhood rule of flagged pages: a binomial tail at the page rule's level.
#include "crd/detect/flagged_share.hpp"

#include "crd/detect/chance_floor.hpp"
#include "crd/detect/combined_rule.hpp"

namespace crd::detect {

double page_level(const DetectOptions& options) {
  const Threshold& t = options.page_threshold;
  if (!t.binomial && !t.beta_binomial) return 0;
  return options.combined ? combined_level(t.alpha) : t.alpha;
}

bool FlaggedShare::improbable(std::uint64_t pages, std::uint64_t flagged) const {
  if (min_flagged_ == 0 || flagged < min_flagged_ || !(level_ > 0 && level_ < 1)) return false;
  return ChanceFloor::upper_tail(pages, flagged, level_) < level_;
}

}  // namespace crd::detect
