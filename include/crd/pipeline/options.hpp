// Options shared by the pipelines, as the CLI fills them in: typed, parsed once. Each member's
// initializer is the option's default (the CLI's --help and /config read it from here).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "crd/scan/corpus_scan.hpp"
#include "crd/base/enum_names.hpp"
#include "crd/detect/detection.hpp"
#include "crd/io/inputs.hpp"
#include "crd/pipeline/run_report.hpp"

namespace crd::pipeline {

// --reader-thread: auto = for gzip archives when the node has a spare core per rank
// (use_reader_thread in reader_thread_choice.hpp).
enum class ReaderThread { Auto, On, Off };
constexpr std::array<EnumName<ReaderThread>, 3> enum_names(ReaderThread) {
  return {{{"auto", ReaderThread::Auto}, {"on", ReaderThread::On}, {"off", ReaderThread::Off}}};
}

// --join: how detection joins chunks with the labeled set (label_set.hpp).
enum class JoinMode { Auto, Replicated, Partitioned };
constexpr std::array<EnumName<JoinMode>, 3> enum_names(JoinMode) {
  return {{{"auto", JoinMode::Auto}, {"replicated", JoinMode::Replicated}, {"partitioned", JoinMode::Partitioned}}};
}

struct CommonOptions {
  std::vector<std::string> inputs;
  io::ExpandOptions expand;             // --skip-missing
  std::string output;
  scan::ScanOptions scan;
  std::size_t round_bytes = 64u << 20;  // shuffle payload per rank per round
  double progress_interval = 10;        // seconds between progress lines; 0 = quiet
  std::uint64_t memory_budget = 0;      // bytes per rank, 0 = unlimited (--memory)
  ReaderThread reader_thread = ReaderThread::Auto;
  std::string work_dir;                 // checkpoints of completed phases ("" = none)
  bool resume = false;                  // continue from the checkpoints in work_dir
  std::vector<std::string> side_inputs; // --stop-chunks, --labels: part of the checkpoints' job identity
  RunInfo info;

  // "" if the options fit together, else why not (names the option): checked by every command
  // before it reads any input or opens its output.
  std::string problem() const;
};

struct DiscoverOptions {
  std::uint64_t chunk_threshold = 10;
  std::uint64_t file_threshold = 10;
  std::string stop_chunks;            // path, "" = none
  std::uint64_t min_chunk_length = 0;
  std::uint64_t chunk_top = 0;        // label only the N most frequent chunks (0 = no limit)
  std::uint64_t file_top = 0;         // the same for files
  bool keep_counts = false;           // write every hash's count (/discovery/chunk_counts, crd merge)
};

struct DetectPipelineOptions {
  std::vector<std::string> labels;        // result files holding labeled sets (detect only)
  JoinMode join = JoinMode::Auto;
  std::uint64_t replicate_max = 2000000;  // auto: replicate L up to this many labels
  detect::DetectOptions detect;           // thresholds, badness, depth, provenance samples
  std::uint64_t pairs = 0;                // detect --pairs K: per flagged page, its K most overlapping labeled documents
};

}  // namespace crd::pipeline
