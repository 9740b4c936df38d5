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

class Progress {
 public:
  // total_bytes: the whole job's input bytes; interval 0 = silent.
  Progress(comm::Transport& transport, std::string phase, std::uint64_t total_bytes, double interval_seconds);
  // This rank's bytes and documents done so far in the phase.
  void update(std::uint64_t bytes, std::uint64_t documents);
  // Collective: closes the channel and prints the job-wide totals and rate once.
  void finish(comm::Transport& transport);

 private:
  void print(std::uint64_t bytes, std::uint64_t documents, bool final_line, bool estimated);

  comm::Transport& transport_;
  bool active_;
  bool tty_;
  int nranks_;
  std::string phase_;
  std::uint64_t total_bytes_;
  double interval_;
  std::uint64_t bytes_ = 0;
  std::uint64_t documents_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  std::chrono::steady_clock::time_point last_post_;
};

}  // namespace crd::pipeline
