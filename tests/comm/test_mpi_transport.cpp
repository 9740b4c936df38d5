// MpiTransport under mpirun: the same conformance checks, also through the split (multi-round) path.
#include <gtest/gtest.h>

#include "crd/comm/mpi_transport.hpp"
#include "transport_checks.hpp"

namespace crd::comm {
namespace {

TEST(MpiTransport, RankAndSizeMatchWorld) {
  MpiTransport t;
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(t.rank(), rank);
  EXPECT_EQ(t.size(), size);
}

TEST(MpiTransport, AlltoallvDirect) {
  MpiTransport t;
  testing::check_alltoallv(t, 1000);
}

TEST(MpiTransport, AllgathervDirect) {
  MpiTransport t;
  testing::check_allgatherv(t, 1000);
}

TEST(MpiTransport, Reductions) {
  MpiTransport t;
  testing::check_reductions(t);
}

// A tiny message limit forces many rounds of odd-sized pieces: the same path that carries
// exchanges larger than 2 GiB.
TEST(MpiTransport, AlltoallvInRounds) {
  for (std::uint64_t limit : {1u, 7u, 64u, 1000u}) {
    MpiTransport t;
    t.set_max_message_bytes(limit);
    testing::check_alltoallv(t, 37);
  }
}

TEST(MpiTransport, AllgathervInRounds) {
  for (std::uint64_t limit : {1u, 7u, 64u, 1000u}) {
    MpiTransport t;
    t.set_max_message_bytes(limit);
    testing::check_allgatherv(t, 37);
  }
}

TEST(MpiTransport, MpiErrorCarriesMpiText) {
  const MpiError e("MPI_Send", MPI_ERR_COUNT);
  EXPECT_EQ(e.code(), MPI_ERR_COUNT);
  EXPECT_NE(std::string(e.what()).find("MPI_Send: "), std::string::npos);
  EXPECT_GT(std::string(e.what()).size(), std::string("MPI_Send: ").size());
}

TEST(MpiTransport, ErrorsReturnInsteadOfAborting) {
  MpiTransport t;
  // An invalid root is an argument error detected locally on every rank; with
  // MPI_ERRORS_RETURN this must come back as a code, which the transport's errhandler allows.
  int value = 0;
  const int rc = MPI_Bcast(&value, 1, MPI_INT, t.size() + 5, t.native());
  EXPECT_NE(rc, MPI_SUCCESS);
}

TEST(MpiSession, NestedSessionIsHarmless) {
  int argc = 0;
  char** argv = nullptr;
  { MpiSession inner(argc, argv); }  // MPI already initialized by the test main: no re-init, no finalize
  int finalized = 1;
  MPI_Finalized(&finalized);
  EXPECT_EQ(finalized, 0);
}

}  // namespace
}  // namespace crd::comm
