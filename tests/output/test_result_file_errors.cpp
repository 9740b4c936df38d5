// ResultFile failure paths under mpirun (parallel HDF5): result_file_checks.hpp.
#include "crd/comm/mpi_transport.hpp"
#include "result_file_checks.hpp"

namespace crd::output {
namespace {

TEST(ResultFileErrors, MissingDirectoryFailsOnEveryRank) {
  comm::MpiTransport t;
  testing::check_missing_directory_fails_on_every_rank(t);
}

TEST(ResultFileErrors, FileInPlaceOfDirectoryFailsOnEveryRank) {
  comm::MpiTransport t;
  testing::check_file_in_place_of_directory_fails_on_every_rank(t);
}

TEST(ResultFileErrors, UncommittedFileIsRemoved) {
  comm::MpiTransport t;
  testing::check_uncommitted_file_is_removed(t);
}

TEST(ResultFileErrors, FailedWriteFailsEveryRankAndLeavesNothing) {
  comm::MpiTransport t;
  testing::check_failed_write_fails_every_rank_and_leaves_nothing(t);
}

TEST(ResultFileErrors, CommitRenamesIntoPlace) {
  comm::MpiTransport t;
  testing::check_commit_renames_into_place(t);
}

TEST(ResultFileErrors, BadMatrixWidthFailsOnEveryRank) {
  comm::MpiTransport t;
  testing::check_bad_matrix_width_fails_on_every_rank(t);
}

}  // namespace
}  // namespace crd::output
