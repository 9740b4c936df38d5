// with_result_file on thread ranks: an exception only one rank knows of (not an agreed
// UsageError/FatalError) ends the job without hanging the ranks waiting in a collective, the
// failing rank's own exception is what run_local reports, and no result file or temporary is left.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "crd/comm/local_transport.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "support/test_paths.hpp"

namespace crd::pipeline {
namespace {
namespace fs = std::filesystem;

class WithResultFile : public ::testing::TestWithParam<int> {};

TEST_P(WithResultFile, OneRanksFailureEndsTheJobAndLeavesNoFile) {
  const int n = GetParam();
  const std::string dir = crd::testing::make_temp_dir("with-result-file");
  const int failing = n - 1;  // rank 0, which holds the file without MPI, when n == 1
  try {
    comm::run_local(n, [&](comm::Transport& t) {
      with_result_file(t, [&](std::optional<output::ResultFile>& file) {
        file.emplace(t, dir + "/out.h5");
        std::vector<std::uint64_t> v(3, static_cast<std::uint64_t>(t.rank()));
        file->write_column("/x", std::span<const std::uint64_t>(v));
        if (t.rank() == failing) throw std::runtime_error("only rank " + std::to_string(t.rank()) + " knows");
        t.barrier();  // the others wait here for a rank that never comes
        file->commit();
      });
    });
    FAIL() << "run_local did not throw";
  } catch (const comm::PeerFailed& e) {
    FAIL() << "the failing rank's own error must win: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "only rank " + std::to_string(failing) + " knows");
  }
  EXPECT_TRUE(fs::is_empty(dir)) << "no result and no temporary may remain";
}

INSTANTIATE_TEST_SUITE_P(Ranks, WithResultFile, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::pipeline
