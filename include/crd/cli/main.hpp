// The crd command line: parses the subcommand and its options, then calls a pipeline.
#pragma once

namespace crd::comm {
class Transport;
}

namespace crd::cli {

// Returns the process exit status: 0 success, 1 fatal error, 2 usage error.
int run_main(int argc, char** argv);

// Runs job command argv[0] (discover, label, detect, run, merge, neardup, quilts,
// compare-hashing: the command table's MPI jobs) on an existing transport, as `mpirun crd argv…`
// would: every rank calls it with the same arguments; returns the exit status. For whole jobs in
// one process on comm::run_local (tests).
int run_pipeline_on(comm::Transport& transport, int argc, char** argv);

}  // namespace crd::cli
