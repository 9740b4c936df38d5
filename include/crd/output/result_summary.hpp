// The summary attributes of a result file, read in one place for every reader that shows them
// (crd inspect's text, crd report's page): who made the result, and detection's statistics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "crd/output/result_reader.hpp"

namespace crd::output {

struct RunSummary {
  std::string command;  // discover, detect, …
  std::string crd_version;
  std::string created;  // UTC
  std::uint64_t nranks = 0;
  std::string chunker;  // chunker_used: the chunker of the result's items
};
RunSummary read_run_summary(const ResultReader& r);

// One population of detection's scores (pages, or URL-prefix neighborhoods).
struct ScoreSummary {
  double mean = 0;
  double sigma = 0;
  double threshold = 0;
  std::string rule;      // how the threshold was set ("mean + σ", …); "" in files written before it was recorded
  bool clamped = false;  // an automatic threshold clamped below 1
  std::uint64_t flagged = 0;
};

struct DetectionSummary {
  std::uint64_t label_count = 0;
  std::string badness;  // --badness
  std::string join;     // --join as resolved
  std::uint64_t min_labeled = 0;
  ScoreSummary pages;
  ScoreSummary neighborhoods;
};
// nullopt when the result holds no /detection.
std::optional<DetectionSummary> read_detection_summary(const ResultReader& r);

}  // namespace crd::output
