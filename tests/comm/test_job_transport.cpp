// JobTransport's rule: MPI only when a launcher's variables are there and do not say the job has one
// process (or CRD_MPI=1); otherwise a one-rank job whose collectives and progress totals work without MPI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "crd/comm/collectives.hpp"
#include "crd/comm/job_transport.hpp"
#include "transport_checks.hpp"

namespace crd::comm {
namespace {

constexpr const char* kLauncherVariables[] = {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                              "PMI_SIZE", "PMI_FD", "MV2_COMM_WORLD_RANK", "SLURM_STEP_ID"};

// Clears every variable the rule reads, and restores none: each test sets what it needs.
class JobTransportRule : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kLauncherVariables) ::unsetenv(name);
    ::unsetenv("CRD_MPI");
  }
};

TEST_F(JobTransportRule, NoLauncherMeansNoMpi) {
  EXPECT_FALSE(started_by_mpi_launcher());
  EXPECT_FALSE(job_needs_mpi());
}

TEST_F(JobTransportRule, EachLauncherVariableMeansMpi) {
  for (const char* name : kLauncherVariables) {
    ::setenv(name, "0", 1);
    EXPECT_TRUE(started_by_mpi_launcher()) << name;
    EXPECT_TRUE(job_needs_mpi()) << name;
    ::unsetenv(name);
    EXPECT_FALSE(started_by_mpi_launcher()) << name;
  }
}

TEST_F(JobTransportRule, CrdMpiForcesMpiOnlyWhenOne) {
  EXPECT_FALSE(job_needs_mpi());
  ::setenv("CRD_MPI", "1", 1);
  EXPECT_TRUE(job_needs_mpi());
  EXPECT_FALSE(started_by_mpi_launcher());
  ::setenv("CRD_MPI", "0", 1);
  EXPECT_FALSE(job_needs_mpi());
  ::setenv("PMIX_RANK", "0", 1);  // a launcher wins over CRD_MPI=0: the ranks must meet
  EXPECT_TRUE(job_needs_mpi());
}

TEST_F(JobTransportRule, OneProcessLaunchSkipsMpiOnlyWhenTheLauncherSaysSo) {
  ::setenv("OMPI_COMM_WORLD_SIZE", "1", 1);  // mpirun -np 1
  ::setenv("OMPI_COMM_WORLD_RANK", "0", 1);
  EXPECT_TRUE(started_by_mpi_launcher());
  EXPECT_FALSE(job_needs_mpi());
  ::setenv("CRD_MPI", "1", 1);
  EXPECT_TRUE(job_needs_mpi());
  ::unsetenv("CRD_MPI");
  ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  EXPECT_TRUE(job_needs_mpi());
  ::setenv("OMPI_COMM_WORLD_SIZE", "10", 1);  // not a prefix match
  EXPECT_TRUE(job_needs_mpi());
  for (const char* name : kLauncherVariables) ::unsetenv(name);
  ::setenv("PMI_RANK", "0", 1);  // MPICH/Intel MPI hydra
  ::setenv("PMI_SIZE", "1", 1);
  EXPECT_FALSE(job_needs_mpi());
  ::setenv("PMI_SIZE", "4", 1);
  EXPECT_TRUE(job_needs_mpi());
  for (const char* name : kLauncherVariables) ::unsetenv(name);
  ::setenv("PMIX_RANK", "0", 1);  // srun --mpi=pmix -n 1 states no size here: MPI, as before
  ::setenv("SLURM_STEP_ID", "0", 1);
  EXPECT_TRUE(job_needs_mpi());
}

TEST_F(JobTransportRule, DirectJobIsOneRankWithWorkingCollectives) {
  int argc = 1;
  char name[] = "crd";
  char* args[] = {name, nullptr};
  char** argv = args;
  JobTransport job(argc, argv);
  Transport& t = job.transport();
  EXPECT_EQ(t.rank(), 0);
  EXPECT_EQ(t.size(), 1);
  EXPECT_EQ(t.ranks_on_node(), 1);
  testing::check_alltoallv(t);
  testing::check_allgatherv(t);
  testing::check_reductions(t);
  EXPECT_EQ(comm::broadcast_from_rank0<std::string>(t, "root"), "root");
  EXPECT_EQ(comm::first_error(t, "full disk"), "rank 0: full disk");
}

TEST_F(JobTransportRule, DirectJobReportsItsOwnProgressExactly) {
  int argc = 1;
  char name[] = "crd";
  char* args[] = {name, nullptr};
  char** argv = args;
  JobTransport job(argc, argv);
  Transport& t = job.transport();
  t.progress_post(1234, 5);
  std::uint64_t bytes = 0, documents = 0;
  ASSERT_TRUE(t.progress_totals(bytes, documents));  // no "~" estimate on the progress line
  EXPECT_EQ(bytes, 1234u);
  EXPECT_EQ(documents, 5u);
  t.progress_close();
  ASSERT_TRUE(t.progress_totals(bytes, documents));
  EXPECT_EQ(bytes, 0u);
}

TEST_F(JobTransportRule, DirectJobAbortEndsTheProcessLikeMpi) {
  int argc = 1;
  char name[] = "crd";
  char* args[] = {name, nullptr};
  char** argv = args;
  EXPECT_EXIT(
      {
        JobTransport job(argc, argv);
        job.transport().abort_all("discover: out of memory");
      },
      ::testing::ExitedWithCode(1), "crd: rank 0: discover: out of memory");
}

}  // namespace
}  // namespace crd::comm
