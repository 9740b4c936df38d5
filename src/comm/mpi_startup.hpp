// What crd changes about Open MPI's start and end on one node, and why: each is a fixed cost of
// every multi-rank job, measured in perf/RESULTS.md §4. Only defaults change; a variable the user
// set always wins.
#pragma once

namespace crd::comm {

// True when Open MPI runs every rank of this job on this node: a singleton (started without a
// launcher) or mpirun with all ranks local. srun/PMIx direct launch sets neither variable, so a
// cluster job keeps Open MPI's own choices.
bool single_node_open_mpi_job();

// Before MPI_Init, for single-node jobs: the ob1 PML (UCX's start-up probes network devices) and
// hwloc without I/O discovery (a PCI scan of every device) and without loading the plugins for it,
// and waiting ranks that yield their core instead of spinning on it. Sets OMPI_MCA_pml,
// HWLOC_COMPONENTS, HWLOC_PLUGINS_BLACKLIST and OMPI_MCA_mpi_yield_when_idle only where unset.
void prefer_single_node_start();

// Before MPI_Init, for every job: no shared-file-pointer files beside the result. crd never uses
// MPI-IO shared file pointers, but Open MPI's ompio opens a component for them with every file:
// across nodes `lockedfile` (a NAME-JOBID-PID.lock file) or `individual` (NAME.data.R and
// NAME.metadata.R files), removed only when the file is closed, so a job that loses a node leaves
// them beside the result (tests/multinode, test_lost_node). Sets OMPI_MCA_sharedfp to
// "^lockedfile,individual" where it is unset: on one node `sm` is still chosen; across nodes none
// is, which ompio allows as long as no shared file pointer is used.
void avoid_shared_file_pointer_files();

// After MPI_Init: TCP_NODELAY on the process's TCP connections to a loopback address, which are
// its PMIx connection to the local launcher. Returns how many it changed.
int disable_nagle_on_loopback_connections();

}  // namespace crd::comm
