// RunReport: what every result file records about its run — counters summed over ranks, phase
// timings (max over ranks), the first read errors, and the root attributes.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/counters.hpp"
#include "crd/io/inputs.hpp"
#include "crd/output/result_file.hpp"

namespace crd::pipeline {

// Wall-clock time per named phase, in the order phases ran.
class PhaseTimer {
 public:
  void start(std::string phase);
  void stop();  // ends the running phase, if any
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }
  double seconds(const std::string& phase) const;

 private:
  std::vector<std::pair<std::string, double>> phases_;
  std::string running_;
  std::chrono::steady_clock::time_point since_;
};

// The phase this process's PhaseTimer started last ("" before any): what a rank that runs out of
// memory names, so the line says where it happened.
std::string last_started_phase();

// Collective: every rank ends up with the counters of all ranks summed, by name.
Counters merge_counters(comm::Transport& transport, const Counters& local);

struct RunInfo {
  std::string command;      // discover, label, detect, run
  std::string command_line; // argv joined
  std::string config_ini;   // effective options
  std::string results_config;  // its lines of options that change results (the CLI's option registry says which)
};

// Collective. Writes the root attributes and /run (counters, resources, timings, errors).
// Counters and resources are global values (the same on every rank).
void write_run_report(output::ResultFile& file, comm::Transport& transport, const RunInfo& info,
                      const Counters& global_counters, const Counters& resources, const PhaseTimer& timer,
                      const std::vector<io::ReadError>& local_errors);

}  // namespace crd::pipeline
