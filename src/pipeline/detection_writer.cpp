// The /detection group of a result file.
#include "crd/pipeline/detect_pipeline.hpp"

namespace crd::pipeline {

detect::DetectOptions to_detect_options(const DetectPipelineOptions& o) {
  detect::DetectOptions d;
  d.page_threshold = detect::Threshold::parse(o.page_threshold, "page-threshold");
  d.neighborhood_threshold = detect::Threshold::parse(o.neighborhood_threshold, "neighborhood-threshold");
  d.min_labeled = o.min_labeled;
  d.badness = detect::parse_badness(o.badness);
  d.max_neighborhood_depth = o.max_neighborhood_depth;
  d.provenance_samples = o.provenance_samples;
  return d;
}

namespace {

void write_pages(output::ResultFile& file, std::vector<detect::PageRow>& pages) {
  std::vector<std::string> urls;
  std::vector<std::uint32_t> chunks, labeled;
  std::vector<double> containment;
  std::vector<std::uint8_t> flagged;
  std::vector<std::vector<std::uint32_t>> positions, label_ids;
  for (auto& p : pages) {  // the rows are done with: their strings and vectors move
    urls.push_back(std::move(p.url));
    chunks.push_back(p.chunks);
    labeled.push_back(p.labeled);
    containment.push_back(p.containment);
    flagged.push_back(p.flagged);
    positions.push_back(std::move(p.positions));
    label_ids.push_back(std::move(p.label_ids));
  }
  const std::string g = "/detection/pages";
  file.create_group(g);
  file.write_strings(g + "/url", urls);
  file.write_column(g + "/chunks", std::span<const std::uint32_t>(chunks));
  file.write_column(g + "/labeled", std::span<const std::uint32_t>(labeled));
  file.write_column(g + "/containment", std::span<const double>(containment));
  file.write_column(g + "/flagged", std::span<const std::uint8_t>(flagged));
  file.write_ragged(g + "/positions", positions);
  file.write_ragged(g + "/label_ids", label_ids);
}

void write_neighborhoods(output::ResultFile& file, std::vector<detect::NeighborhoodRow>& rows) {
  std::vector<std::string> prefix;
  std::vector<std::uint32_t> depth;
  std::vector<std::uint64_t> pages, chunks, labeled;
  std::vector<double> badness;
  std::vector<std::uint8_t> flagged;
  for (auto& n : rows) {
    prefix.push_back(std::move(n.prefix));
    depth.push_back(n.depth);
    pages.push_back(n.pages);
    chunks.push_back(n.chunks);
    labeled.push_back(n.labeled);
    badness.push_back(n.badness);
    flagged.push_back(n.flagged);
  }
  const std::string g = "/detection/neighborhoods";
  file.create_group(g);
  file.write_strings(g + "/prefix", prefix);
  file.write_column(g + "/depth", std::span<const std::uint32_t>(depth));
  file.write_column(g + "/pages", std::span<const std::uint64_t>(pages));
  file.write_column(g + "/chunks", std::span<const std::uint64_t>(chunks));
  file.write_column(g + "/labeled", std::span<const std::uint64_t>(labeled));
  file.write_column(g + "/badness", std::span<const double>(badness));
  file.write_column(g + "/flagged", std::span<const std::uint8_t>(flagged));
}

void write_labels(output::ResultFile& file, const detect::LabelSlice& labels,
                  const std::vector<detect::LabelUse>& use) {
  std::vector<std::uint8_t> hashes;
  std::vector<std::uint32_t> lengths;
  std::vector<std::uint64_t> pages, hoods, occurrences;
  std::vector<std::uint32_t> prov_label;
  std::vector<std::string> prov_url;
  for (std::size_t i = 0; i < labels.hashes.size(); ++i) {
    hashes.insert(hashes.end(), labels.hashes[i].bytes.begin(), labels.hashes[i].bytes.end());
    lengths.push_back(static_cast<std::uint32_t>(labels.lengths[i]));
    pages.push_back(use[i].pages);
    hoods.push_back(use[i].neighborhoods);
    occurrences.push_back(use[i].occurrences);
    for (const auto& url : use[i].sample_urls) {
      prov_label.push_back(static_cast<std::uint32_t>(labels.first_id + i));
      prov_url.push_back(url);
    }
  }
  const std::string g = "/detection/labels";
  file.create_group(g);
  file.write_matrix(g + "/hash", hashes, 20);
  file.write_column(g + "/length", std::span<const std::uint32_t>(lengths));
  file.write_strings(g + "/sample", labels.samples);
  file.write_column(g + "/pages", std::span<const std::uint64_t>(pages));
  file.write_column(g + "/neighborhoods", std::span<const std::uint64_t>(hoods));
  file.write_column(g + "/occurrences", std::span<const std::uint64_t>(occurrences));
  // Label ids ascend with rank, and urls ascend within a label: rank order is the output order.
  file.create_group("/detection/provenance");
  file.write_column("/detection/provenance/label", std::span<const std::uint32_t>(prov_label));
  file.write_strings("/detection/provenance/url", prov_url);
}

}  // namespace

void write_detection(output::ResultFile& file, detect::DetectionResult&& result,
                     const detect::LabelSlice& labels, std::uint64_t label_total,
                     const detect::DetectOptions& options, const std::string& join_mode) {
  const auto& s = result.stats;
  file.create_group("/detection");
  file.set_attribute("/detection", "page_mean", s.page_mean);
  file.set_attribute("/detection", "page_sigma", s.page_sigma);
  file.set_attribute("/detection", "page_threshold", s.page_threshold);
  file.set_attribute("/detection", "neighborhood_mean", s.neighborhood_mean);
  file.set_attribute("/detection", "neighborhood_sigma", s.neighborhood_sigma);
  file.set_attribute("/detection", "neighborhood_threshold", s.neighborhood_threshold);
  file.set_attribute("/detection", "badness_mode", detect::to_string(options.badness));
  file.set_attribute("/detection", "join_mode", join_mode);
  file.set_attribute("/detection", "min_labeled", options.min_labeled);
  file.set_attribute("/detection", "labels", label_total);
  file.set_attribute("/detection", "pages_flagged", s.flagged_pages);
  file.set_attribute("/detection", "neighborhoods_flagged", s.flagged_neighborhoods);
  write_labels(file, labels, result.label_use);
  write_pages(file, result.pages);
  write_neighborhoods(file, result.neighborhoods);
}

}  // namespace crd::pipeline
