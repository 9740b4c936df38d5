// Progress of a long phase on stderr, from rank 0 only: the job's bytes and documents done, rate,
// ETA. On a terminal it redraws one line; otherwise it prints a timestamped line every interval.
// update() never waits for another rank: ranks post their totals on the transport's progress side
// channel (at most one message in flight each, a few per second) and rank 0 reads the latest.
// Without a channel (in-process tests) rank 0 extrapolates from its own, size-balanced shard.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/io/inputs.hpp"

namespace crd::pipeline {

// The current time in UTC, ISO 8601 ("2026-11-27T05:09:57Z"): progress lines not on a terminal
// start with it, and /run's "created" attribute is it.
std::string utc_now();

class Progress {
 public:
  // total_bytes: the whole job's input bytes; interval 0 = silent. With `items` (e.g. "chunks"),
  // a phase that reads no input counts units of work instead: `total_bytes` and update()'s
  // `bytes` are numbers of those items, and documents are not shown.
  Progress(comm::Transport& transport, std::string phase, std::uint64_t total_bytes, double interval_seconds,
           std::string items = {});
  // This rank's bytes (or items) and documents done so far in the phase.
  void update(std::uint64_t bytes, std::uint64_t documents);
  // Collective: closes the channel and prints the job-wide totals and rate once.
  void finish(comm::Transport& transport);

 private:
  void print(std::uint64_t bytes, std::uint64_t documents, bool final_line, bool estimated);
  void print_items(std::uint64_t done, double frac, double elapsed, double eta, const char* estimate, bool final_line);

  comm::Transport& transport_;
  bool active_;
  bool tty_;
  int nranks_;
  std::string phase_;
  std::string items_;
  std::uint64_t total_bytes_;
  double interval_;
  std::uint64_t bytes_ = 0;
  std::uint64_t documents_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  std::chrono::steady_clock::time_point last_post_;
};

}  // namespace crd::pipeline
