// A command that runs out of memory says where and what helps, not only "std::bad_alloc".
#include <gtest/gtest.h>

#include <new>

#include "commands.hpp"
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

}  // namespace
