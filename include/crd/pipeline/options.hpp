// Options shared by the pipelines, as the CLI fills them in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/discover/corpus_scan.hpp"
#include "crd/pipeline/run_report.hpp"

namespace crd::pipeline {

struct CommonOptions {
  std::vector<std::string> inputs;
  std::string output;
  discover::ScanOptions scan;
  std::size_t round_bytes = 64u << 20;  // shuffle payload per rank per round
  double progress_interval = 10;        // seconds between progress lines; 0 = quiet
  RunInfo info;
};

struct DiscoverOptions {
  std::uint64_t chunk_threshold = 1;
  std::uint64_t file_threshold = 1;
  std::string stop_chunks;            // path, "" = none
  std::uint64_t min_chunk_length = 0;
};

}  // namespace crd::pipeline
