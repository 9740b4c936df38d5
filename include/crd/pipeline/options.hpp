// Options shared by the pipelines, as the CLI fills them in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/discover/corpus_scan.hpp"
#include "crd/detect/detection.hpp"
#include "crd/io/inputs.hpp"
#include "crd/pipeline/run_report.hpp"

namespace crd::pipeline {

struct CommonOptions {
  std::vector<std::string> inputs;
  io::ExpandOptions expand;             // --skip-missing
  std::string output;
  discover::ScanOptions scan;
  std::size_t round_bytes = 64u << 20;  // shuffle payload per rank per round
  double progress_interval = 10;        // seconds between progress lines; 0 = quiet
  std::uint64_t memory_budget = 0;      // bytes per rank, 0 = unlimited (--memory)
  std::string reader_thread = "auto";   // auto | on | off (--reader-thread)
  std::string work_dir;                 // checkpoints of completed phases ("" = none)
  bool resume = false;                  // continue from the checkpoints in work_dir
  RunInfo info;
};

struct DiscoverOptions {
  std::uint64_t chunk_threshold = 1;
  std::uint64_t file_threshold = 1;
  std::string stop_chunks;            // path, "" = none
  std::uint64_t min_chunk_length = 0;
  std::uint64_t chunk_top = 0;        // label only the N most frequent chunks (0 = no limit)
  std::uint64_t file_top = 0;         // the same for files
};

}  // namespace crd::pipeline

namespace crd::pipeline {

struct DetectPipelineOptions {
  std::vector<std::string> labels;        // result files holding labeled sets (detect only)
  std::string join = "auto";              // auto | replicated | partitioned
  std::uint64_t replicate_max = 2000000;  // auto: replicate L up to this many labels
  std::string page_threshold = "auto";
  std::string neighborhood_threshold = "auto";
  std::uint64_t min_labeled = 1;
  std::uint64_t min_neighborhood_labeled = 0;
  std::string badness = "pages";
  int max_neighborhood_depth = -1;
  std::uint64_t provenance_samples = 5;
};

}  // namespace crd::pipeline
