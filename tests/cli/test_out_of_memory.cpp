// A command that runs out of memory says where and what helps, not only "std::bad_alloc".
#include <gtest/gtest.h>

#include <new>
#include <string>

#include "commands.hpp"
#include "crd/comm/transport.hpp"
#include "crd/pipeline/run_report.hpp"

namespace {

TEST(OutOfMemory, NamesThePhaseAndWhatHelps) {
  ::testing::internal::CaptureStderr();
  const int rc = crd::cli::run_reporting_errors("compare", true, nullptr, []() -> int {
    crd::pipeline::PhaseTimer timer;
    timer.start("pairs");
    throw std::bad_alloc();
  });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err,
            "crd compare: fatal: out of memory in phase 'pairs' (std::bad_alloc): give it a smaller input, or run it "
            "on a machine with more memory\n");
}

// Rank 1 of a 2-rank job: the collectives are never reached; abort_all, which ends a real job,
// throws the line it was given so the test can read it.
struct JobEnded {
  std::string message;
};
class SecondOfTwoRanks final : public crd::comm::Transport {
 public:
  int rank() const override { return 1; }
  int size() const override { return 2; }
  void alltoallv(std::span<const std::byte>, std::span<const std::uint64_t>, std::vector<std::byte>&,
                 std::vector<std::uint64_t>&) override {}
  void allgatherv(std::span<const std::byte>, std::vector<std::byte>&, std::vector<std::uint64_t>&) override {}
  void allreduce(std::span<std::uint64_t>, crd::comm::ReduceOp) override {}
  void allreduce(std::span<double>, crd::comm::ReduceOp) override {}
  std::uint64_t exscan_sum(std::uint64_t) override { return 0; }
  void barrier() override {}
  [[noreturn]] void abort_all(const std::string& message) override { throw JobEnded{message}; }
};

TEST(OutOfMemory, InAJobNamesTheRankThePhaseAndWhatHelps) {
  SecondOfTwoRanks transport;
  std::string ended;
  try {
    crd::cli::run_reporting_errors("discover", false, &transport, []() -> int {
      crd::pipeline::PhaseTimer timer;
      timer.start("scan");
      throw std::bad_alloc();
    });
  } catch (const JobEnded& e) {
    ended = e.message;
  }
  EXPECT_EQ(ended,
            "discover: out of memory on rank 1 of 2 in phase 'scan' (std::bad_alloc): give --memory the memory a rank "
            "may use (crd then plans passes or names a rank count that fits), or run on more ranks or nodes");
}

}  // namespace
