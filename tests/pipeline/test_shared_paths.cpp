// The checks of paths that ranks on different nodes must see alike (shared_paths.hpp), on the
// thread transport: one process stands for the nodes, so "another node's view" of a directory is
// a rank given another directory under the same role. tests/multinode runs them on real
// (simulated) nodes.
#include <gtest/gtest.h>

#include <filesystem>

#include "crd/base/error.hpp"
#include "crd/comm/local_transport.hpp"
#include "crd/pipeline/shared_paths.hpp"
#include "support/test_paths.hpp"

namespace crd::pipeline {
namespace {

namespace fs = std::filesystem;

class SharedPaths : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = crd::testing::make_temp_dir("shared-paths"); }
  std::vector<std::string> entries(const fs::path& dir) const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    return names;
  }
  fs::path dir_;
};

TEST_F(SharedPaths, ASharedOutputDirectoryPassesAndKeepsNoProbe) {
  comm::run_local(3,
                  [&](comm::Transport& t) { EXPECT_NO_THROW(check_output_dir_shared(t, (dir_ / "out.h5").string())); });
  EXPECT_EQ(entries(dir_), std::vector<std::string>{});
}

TEST_F(SharedPaths, ADirectoryThatIsNotRankZerosFailsOnEveryRank) {
  fs::create_directories(dir_ / "node0");
  fs::create_directories(dir_ / "node1");  // the same name on another node: another directory
  comm::run_local(3, [&](comm::Transport& t) {
    const fs::path dir = dir_ / (t.rank() == 0 ? "node0" : "node1");
    try {
      check_output_dir_shared(t, (dir / "out.h5").string());
      ADD_FAILURE() << "rank " << t.rank() << ": an unshared output directory was accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()), "output '" + (dir / "out.h5").string() + "': rank 1: on node " + node_name() +
                                           ", output directory '" + (dir_ / "node1").string() +
                                           "' is not the one rank 0 (node " + node_name() +
                                           ") writes to: the output must be on a file system every node shares, not "
                                           "a node-local one such as /tmp");
    }
  });
  EXPECT_EQ(entries(dir_ / "node0"), std::vector<std::string>{}) << "the probe is removed";
  EXPECT_EQ(entries(dir_ / "node1"), std::vector<std::string>{});
}

TEST_F(SharedPaths, AResumeMissingOneRanksCheckpointsIsRefusedNamingIt) {
  const std::string dir = dir_.string();
  comm::run_local(3, [&](comm::Transport& t) { check_checkpoint_nodes(t, dir, false); });
  for (int r = 0; r < 3; ++r) EXPECT_TRUE(fs::exists(dir_ / ("rank-" + std::to_string(r) + "-of-3.nodes")));
  comm::run_local(3, [&](comm::Transport& t) { EXPECT_NO_THROW(check_checkpoint_nodes(t, dir, true)); });
  fs::remove(dir_ / "rank-1-of-3.nodes");  // rank 1 now runs where its checkpoints are not
  comm::run_local(3, [&](comm::Transport& t) {
    try {
      check_checkpoint_nodes(t, dir, true);
      ADD_FAILURE() << "rank " << t.rank() << ": the resume was not refused";
    } catch (const FatalError& e) {
      EXPECT_EQ(std::string(e.what()), "cannot resume: rank 1 on node " + node_name() + " finds no checkpoints in " +
                                           dir + " (the last run had it on node " + node_name() +
                                           "); a node-local --work-dir needs the same nodes in the same rank order, "
                                           "or use one every node shares");
    }
  });
}

TEST_F(SharedPaths, ARankSeeingOnlyAnotherRanksRecordIsRefusedToo) {
  // Two ranks swapped between two nodes: each finds the other's record, not its own.
  const std::string dir = dir_.string();
  comm::run_local(2, [&](comm::Transport& t) { check_checkpoint_nodes(t, dir, false); });
  fs::remove(dir_ / "rank-0-of-2.nodes");
  comm::run_local(2, [&](comm::Transport& t) {
    EXPECT_THROW(check_checkpoint_nodes(t, dir, true), FatalError) << "rank " << t.rank();
  });
}

TEST_F(SharedPaths, NoRecordAnywhereIsAFreshStart) {
  comm::run_local(2, [&](comm::Transport& t) { EXPECT_NO_THROW(check_checkpoint_nodes(t, dir_.string(), true)); });
  EXPECT_EQ(entries(dir_).size(), 2u) << "each rank records the nodes";
}

}  // namespace
}  // namespace crd::pipeline
