// JobTransport: MPI under a launcher, the one-rank in-process transport otherwise.
#include "crd/comm/job_transport.hpp"

#include <cstdlib>
#include <cstring>

#include "crd/comm/local_transport.hpp"
#include "crd/comm/mpi_transport.hpp"

namespace crd::comm {
namespace {

bool set(const char* name) { return std::getenv(name) != nullptr; }

bool is_one(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace

bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                           "PMI_FD", "MV2_COMM_WORLD_RANK", "SLURM_STEP_ID"})
    if (set(name)) return true;
  return false;
}

bool job_needs_mpi() {
  if (is_one("CRD_MPI")) return true;
  if (!started_by_mpi_launcher()) return false;
  // A launcher that says the job has one process: nothing to meet, so MPI_Init (~0.2 s) is skipped
  // too. Only sizes the launcher states: srun with PMIx states none in the environment.
  const char* ompi = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (ompi != nullptr) return std::strcmp(ompi, "1") != 0;
  return !is_one("PMI_SIZE");
}

JobTransport::JobTransport(int& argc, char**& argv) {
  if (job_needs_mpi()) {
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
