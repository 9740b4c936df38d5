// crd quilts: the checks across its options, then the pipeline.
#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/pipeline/quilts_pipeline.hpp"

namespace crd::cli {

void check_quilts(const Settings& s) {
  if (const auto problem = s.quilts.problem(); !problem.empty()) throw UsageError(std::string(problem));
}

int run_quilts(Invocation& in) {
  pipeline::run_quilts(in.settings.common, in.settings.quilts, *in.transport, in.settings.exclude_pages);
  return 0;
}

}  // namespace crd::cli
