// JobTransport: MPI under a launcher, the one-rank in-process transport otherwise.
#include "crd/comm/job_transport.hpp"

#include <cstdlib>
#include <cstring>

#include "crd/comm/local_transport.hpp"
#include "crd/comm/mpi_transport.hpp"

namespace crd::comm {
namespace {

bool set(const char* name) { return std::getenv(name) != nullptr; }

}  // namespace

bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                           "PMI_FD", "MV2_COMM_WORLD_RANK", "SLURM_STEP_ID"})
    if (set(name)) return true;
  const char* force = std::getenv("CRD_MPI");
  return force != nullptr && std::strcmp(force, "1") == 0;
}

JobTransport::JobTransport(int& argc, char**& argv) {
  if (started_by_mpi_launcher()) {
    session_ = std::make_unique<MpiSession>(argc, argv);
    transport_ = std::make_unique<MpiTransport>();
  } else {
    transport_ = make_single_rank_transport();
  }
}

JobTransport::~JobTransport() {
  transport_.reset();  // MpiTransport frees its communicators before MPI_Finalize
  session_.reset();
}

}  // namespace crd::comm
