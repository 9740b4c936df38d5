// The /detection group of a result file.
#include "detection_writer.hpp"

#include "crd/output/schema.hpp"

namespace crd::pipeline {

namespace schema = output::schema;

namespace {

// The sample URLs are moved into their rows, not copied (a few per label, for every label).
void write_labels(output::ResultFile& file, const detect::LabelSlice& labels, std::vector<detect::LabelUse>&& use) {
  std::vector<output::DetectedLabelRow> rows;
  rows.reserve(labels.hashes.size());
  std::size_t urls = 0;
  for (const auto& u : use) urls += u.sample_urls.size();
  std::vector<output::ProvenanceRow> provenance;
  provenance.reserve(urls);
  for (std::size_t i = 0; i < labels.hashes.size(); ++i) {
    rows.push_back({labels.hashes[i], output::narrow_saturated<std::uint32_t>(labels.lengths[i]), labels.samples[i],
                    use[i].pages, use[i].neighborhoods, use[i].occurrences});
    for (auto& url : use[i].sample_urls)
      provenance.push_back({static_cast<std::uint32_t>(labels.first_id + i), std::move(url)});
  }
  output::write_table(file, schema::kDetectionLabels, rows);
  // Label ids ascend with rank, and urls ascend within a label: rank order is the output order.
  output::write_table(file, schema::kProvenance, provenance);
}

}  // namespace

void write_detection(output::ResultFile& file, detect::DetectionResult&& result, const detect::LabelSlice& labels,
                     std::uint64_t label_total, const detect::DetectOptions& options, const std::string& join_mode) {
  const auto& s = result.stats;
  namespace attr = schema::attr;
  const auto set = [&](const schema::Attribute& a, const auto& value) { schema::set_attribute(file, a, value); };
  file.create_group(schema::kDetection);
  set(attr::kPageMean, s.page_mean);
  set(attr::kPageSigma, s.page_sigma);
  set(attr::kPageThreshold, s.page_threshold);
  set(attr::kNeighborhoodMean, s.neighborhood_mean);
  set(attr::kNeighborhoodSigma, s.neighborhood_sigma);
  set(attr::kNeighborhoodThreshold, s.neighborhood_threshold);
  set(attr::kBadnessMode, name_of(options.badness));
  set(attr::kJoinMode, join_mode);
  set(attr::kMinLabeled, options.min_labeled);
  set(attr::kLabelCount, label_total);
  set(attr::kPagesFlagged, s.flagged_pages);
  set(attr::kNeighborhoodsFlagged, s.flagged_neighborhoods);
  set(attr::kPageThresholdRule, options.page_threshold.to_string());
  set(attr::kPageThresholdClamped, std::uint64_t{s.page_threshold_clamped});
  set(attr::kPageThresholdChosen, std::uint64_t{options.page_threshold_chosen ? 1u : 0u});
  set(attr::kPageMedian, s.page_median);
  set(attr::kPageMad, s.page_mad);
  set(attr::kNeighborhoodThresholdRule, options.neighborhood_threshold.to_string());
  set(attr::kNeighborhoodThresholdClamped, std::uint64_t{s.neighborhood_threshold_clamped});
  set(attr::kNeighborhoodMedian, s.neighborhood_median);
  set(attr::kNeighborhoodMad, s.neighborhood_mad);
  set(attr::kMinNeighborhoodLabeled, options.min_neighborhood_labeled);
  set(attr::kHostStopPages, options.host_stop_pages);
  set(attr::kHostStopLabels, s.host_stop_labels);
  if (options.cross_host_stop_hosts > 0) {
    set(attr::kCrossHostStopHosts, options.cross_host_stop_hosts);
    set(attr::kCrossHostStopCut, options.cross_host_stop_cut);
    set(attr::kCrossHostStopLabels, s.cross_host_stop_labels);
  }
  if (options.page_threshold.beta_binomial) {
    set(attr::kPageBetaA, s.page_beta_a);
    set(attr::kPageBetaB, s.page_beta_b);
    set(attr::kPageBetaPages, s.page_beta_pages);
  }
  write_labels(file, labels, std::move(result.label_use));
  output::write_table(file, schema::kPages, result.pages);
  output::write_table(file, schema::kNeighborhoods, result.neighborhoods);
}

}  // namespace crd::pipeline
