// crd neardup: the checks across its options, then the pipeline.
#include "commands.hpp"
#include "crd/base/error.hpp"

namespace crd::cli {

void check_neardup(const Settings& s) {
  if (const std::string problem = s.neardup.problem(); !problem.empty()) throw UsageError(problem);
}

int run_neardup(Invocation& in) {
  pipeline::NeardupOptions& options = in.settings.neardup;
  options.rules.piece_bits = options.sketch.piece_bits();
  pipeline::run_neardup(in.settings.common, options, *in.transport);
  return 0;
}

}  // namespace crd::cli
