// The transport of a crd process: MPI when an MPI launcher started a job of several processes, else
// a one-rank job in this process without MPI. A direct run (`crd discover DIR`) then skips MPI_Init, which for Open
// MPI means spawning a singleton helper daemon (~0.2 s, perf/RESULTS.md §4); its results are the
// same (one rank writes with HDF5's serial driver; tests/integration/test_in_process.py).
#pragma once

#include <memory>
#include <optional>

#include "crd/comm/transport.hpp"

namespace crd::comm {

class MpiSession;

// True when an MPI launcher started this process, judged from the environment the launchers set:
// Open MPI's mpirun (OMPI_COMM_WORLD_SIZE), PMIx (PMIX_RANK: srun --mpi=pmix, prterun), PMI-1/2
// (PMI_RANK, PMI_SIZE: MPICH/Intel MPI hydra, srun --mpi=pmi2), MVAPICH (MV2_COMM_WORLD_RANK), or
// a Slurm job step (SLURM_STEP_ID: srun, whatever its --mpi). Any of them means MPI, as before;
// only a process with none of them is a direct run.
bool started_by_mpi_launcher();

// Whether this process starts MPI: CRD_MPI=1 (the escape hatch: the old singleton, or MPI for a
// one-process launch), or a launcher started it and did not say the job has one process (OMPI_COMM_WORLD_SIZE=1: `mpirun -np 1`; PMI_SIZE=1). A one-process job runs the
// one-rank transport as a direct run does.
bool job_needs_mpi();

// RAII: MpiSession + MpiTransport when job_needs_mpi(), else the one-rank transport. Pipeline commands hold one for the job.
class JobTransport {
 public:
  JobTransport(int& argc, char**& argv);
  ~JobTransport();
  JobTransport(const JobTransport&) = delete;
  JobTransport& operator=(const JobTransport&) = delete;

  Transport& transport() { return *transport_; }

 private:
  std::unique_ptr<MpiSession> session_;  // declared first: finalized after the transport is gone
  std::unique_ptr<Transport> transport_;
};

}  // namespace crd::comm
