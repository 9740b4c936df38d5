// crd quilts: the checks across its options, then the pipeline.
#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/pipeline/quilts_pipeline.hpp"

namespace crd::cli {
namespace {

// --gram-words is the chunking's field (one name, one meaning: words per gram); quilts' k follows it.
quilts::QuiltParams quilt_params(const Settings& s) {
  quilts::QuiltParams p = s.quilts;
  p.k = s.common.scan.chunking.gram_words;
  return p;
}

}  // namespace

// quilts' own default k, which winnow's K need not share.
void quilts_defaults(Settings& s) { s.common.scan.chunking.gram_words = quilts::QuiltParams{}.k; }

void check_quilts(const Settings& s) {
  if (const auto problem = quilt_params(s).problem(); !problem.empty()) throw UsageError(std::string(problem));
}

int run_quilts(Invocation& in) {
  in.settings.quilts = quilt_params(in.settings);
  pipeline::run_quilts(in.settings.common, in.settings.quilts, *in.transport, in.settings.exclude_pages);
  return 0;
}

}  // namespace crd::cli
