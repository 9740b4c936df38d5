// crd compare-hashing: parsed options → the comparison job (pipeline/compare_hashing_pipeline.hpp).
#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/pipeline/compare_hashing_pipeline.hpp"

namespace crd::cli {

void check_compare_hashing(const Settings& s) {
  // Its methods' confusion matrices are made at one fixed page rule per run; a fitted rate is detect's.
  if (s.detect.detect.page_threshold.beta_binomial)
    throw UsageError("option --page-threshold: betabinomial is crd detect's and crd run's; give binomial[:R[:ALPHA]]");
  if (s.detect.detect.page_threshold.fitted)
    throw UsageError("option --page-threshold: binomial:fit is crd detect's and crd run's; give binomial[:R[:ALPHA]]");
}

int run_compare_hashing(Invocation& in) {
  // --labels, --page-threshold and --min-labeled are bound once (command_settings.hpp).
  Settings& s = in.settings;
  s.hashing.labels = s.labels;
  s.hashing.page_threshold = s.detect.detect.page_threshold;
  s.hashing.min_labeled = s.detect.detect.min_labeled;
  pipeline::run_compare_hashing(s.common, s.discover, s.hashing, *in.transport);
  return 0;
}

}  // namespace crd::cli
