// crd neardup: the checks across its options, then the pipeline.
#include "commands.hpp"
#include "crd/base/error.hpp"

namespace crd::cli {

void check_neardup(const Settings& s) {
  const pipeline::NeardupOptions& options = s.neardup;
  if (const auto problem = options.sketch.problem(); !problem.empty()) throw UsageError(std::string(problem));
  if (options.rules.min_b_similarity > options.sketch.m_prime)
    throw UsageError("option --min-b-similarity: at most --supershingles (" + std::to_string(options.sketch.m_prime) +
                     ")");
  // Two sketches cannot agree on more bits than they have. A default above fewer bits is
  // refused only where the method uses it (--simhash-bits 128 --method minhash is fine).
  const neardup::PairRules defaults;
  const neardup::Method method = options.rules.method;
  const struct {
    const char* name;
    std::uint32_t value, fallback;
    bool used;
  } c_thresholds[] = {{"min-c-similarity", options.rules.min_c_similarity, defaults.min_c_similarity,
                       method == neardup::Method::SimHash},
                      {"combined-c-similarity", options.rules.combined_c_similarity, defaults.combined_c_similarity,
                       method == neardup::Method::Combined}};
  for (const auto& t : c_thresholds) {
    if (t.value > options.sketch.b && (t.used || t.value != t.fallback))
      throw UsageError(std::string("option --") + t.name + ": at most --simhash-bits (" +
                       std::to_string(options.sketch.b) + ")");
  }
}

int run_neardup(Invocation& in) {
  pipeline::NeardupOptions& options = in.settings.neardup;
  options.rules.piece_bits = options.sketch.piece_bits();
  pipeline::run_neardup(in.settings.common, options, *in.transport);
  return 0;
}

}  // namespace crd::cli
