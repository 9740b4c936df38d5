// The checks across crd neardup's options (neardup_pipeline.hpp).
#include "crd/pipeline/neardup_pipeline.hpp"

namespace crd::pipeline {

std::string NeardupOptions::problem() const {
  if (const std::string_view p = sketch.problem(); !p.empty()) return std::string(p);
  if (rules.min_b_similarity > sketch.m_prime)
    return "option --min-b-similarity: at most --supershingles (" + std::to_string(sketch.m_prime) + ")";
  // Two sketches cannot agree on more bits than they have. A default above fewer bits is
  // refused only where the method uses it (--simhash-bits 128 --method minhash is fine).
  const neardup::PairRules defaults;
  const struct {
    const char* name;
    std::uint32_t value, fallback;
    bool used;
  } c_thresholds[] = {
      {"min-c-similarity", rules.min_c_similarity, defaults.min_c_similarity, rules.method == neardup::Method::SimHash},
      {"combined-c-similarity", rules.combined_c_similarity, defaults.combined_c_similarity,
       rules.method == neardup::Method::Combined}};
  for (const auto& t : c_thresholds)
    if (t.value > sketch.b && (t.used || t.value != t.fallback))
      return std::string("option --") + t.name + ": at most --simhash-bits (" + std::to_string(sketch.b) + ")";
  if (!(rules.min_jaccard >= 0 && rules.min_jaccard <= 1)) return "option --min-jaccard: a fraction in 0..1";
  if (rules.min_jaccard > 0 && sketch.jaccard_sample == 0)
    return "option --jaccard-sample: at least 1 with --min-jaccard";
  return {};
}

}  // namespace crd::pipeline
