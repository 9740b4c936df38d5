// ResultFile on the thread transport (rank 0 gathers and writes with serial HDF5), 1..4 thread
// ranks: the same life cycle and failure checks as under mpirun (result_file_checks.hpp).
#include "crd/comm/local_transport.hpp"
#include "result_file_checks.hpp"

namespace crd::output {
namespace {

class ResultFileLocal : public ::testing::TestWithParam<int> {};

TEST_P(ResultFileLocal, MissingDirectoryFailsOnEveryRank) {
  comm::run_local(GetParam(), testing::check_missing_directory_fails_on_every_rank);
}

TEST_P(ResultFileLocal, FileInPlaceOfDirectoryFailsOnEveryRank) {
  comm::run_local(GetParam(), testing::check_file_in_place_of_directory_fails_on_every_rank);
}

TEST_P(ResultFileLocal, UncommittedFileIsRemoved) {
  comm::run_local(GetParam(), testing::check_uncommitted_file_is_removed);
}

TEST_P(ResultFileLocal, FailedWriteFailsEveryRankAndLeavesNothing) {
  comm::run_local(GetParam(), testing::check_failed_write_fails_every_rank_and_leaves_nothing);
}

TEST_P(ResultFileLocal, CommitRenamesIntoPlace) {
  comm::run_local(GetParam(), testing::check_commit_renames_into_place);
}

TEST_P(ResultFileLocal, BadMatrixWidthFailsOnEveryRank) {
  comm::run_local(GetParam(), testing::check_bad_matrix_width_fails_on_every_rank);
}

INSTANTIATE_TEST_SUITE_P(Ranks, ResultFileLocal, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace crd::output
