// Reading a result's summary attributes (result_summary.hpp).
#include "crd/output/result_summary.hpp"

#include "crd/output/chunker_used.hpp"
#include "crd/output/schema.hpp"

namespace crd::output {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;

ScoreSummary read_scores(const ResultReader& r, const schema::Attribute& mean, const schema::Attribute& sigma,
                         const schema::Attribute& threshold, const schema::Attribute& rule,
                         const schema::Attribute& clamped, const schema::Attribute& flagged) {
  ScoreSummary out;
  out.mean = schema::attribute_double(r, mean);
  out.sigma = schema::attribute_double(r, sigma);
  out.threshold = schema::attribute_double(r, threshold);
  if (schema::has_attribute(r, rule)) out.rule = schema::attribute_string(r, rule);
  out.clamped = schema::has_attribute(r, clamped) && schema::attribute_u64(r, clamped) != 0;
  out.flagged = schema::attribute_u64(r, flagged);
  return out;
}

}  // namespace

RunSummary read_run_summary(const ResultReader& r) {
  return {schema::attribute_string(r, attr::kCommand), schema::attribute_string(r, attr::kCrdVersion),
          schema::attribute_string(r, attr::kCreated), schema::attribute_u64(r, attr::kNranks), chunker_used(r)};
}

std::optional<DetectionSummary> read_detection_summary(const ResultReader& r) {
  if (!r.has(schema::kDetection)) return std::nullopt;
  DetectionSummary out;
  out.label_count = schema::attribute_u64(r, attr::kLabelCount);
  out.badness = schema::attribute_string(r, attr::kBadnessMode);
  out.join = schema::attribute_string(r, attr::kJoinMode);
  if (schema::has_attribute(r, attr::kMinLabeled)) out.min_labeled = schema::attribute_u64(r, attr::kMinLabeled);
  out.pages = read_scores(r, attr::kPageMean, attr::kPageSigma, attr::kPageThreshold, attr::kPageThresholdRule,
                          attr::kPageThresholdClamped, attr::kPagesFlagged);
  out.neighborhoods =
      read_scores(r, attr::kNeighborhoodMean, attr::kNeighborhoodSigma, attr::kNeighborhoodThreshold,
                  attr::kNeighborhoodThresholdRule, attr::kNeighborhoodThresholdClamped, attr::kNeighborhoodsFlagged);
  return out;
}

}  // namespace crd::output
