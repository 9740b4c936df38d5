// crd compare-hashing: parsed options → the comparison job (compare/compare_hashing.hpp).
#include "commands.hpp"
#include "crd/compare/compare_hashing.hpp"

namespace crd::cli {

int run_compare_hashing(Invocation& in) {
  // --labels, --page-threshold and --min-labeled are bound once (command_settings.hpp).
  Settings& s = in.settings;
  s.hashing.labels = s.labels;
  s.hashing.page_threshold = s.detect.detect.page_threshold;
  s.hashing.min_labeled = s.detect.detect.min_labeled;
  compare::run_compare_hashing(s.common, s.discover, s.hashing, *in.transport);
  return 0;
}

}  // namespace crd::cli
