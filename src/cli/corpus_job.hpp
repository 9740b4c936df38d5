// The frame every corpus-reading command shares (discover, label, detect, run, neardup,
// compare-hashing): MPI up, errors reported once, and the job's inputs recorded and protected.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "option_groups.hpp"
#include "crd/comm/transport.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::cli {

// --help answered without MPI; otherwise body runs on an MPI transport, its errors reported as
// run_reporting_errors does (rank 0 prints agreed errors; one rank's own error ends the job).
int run_mpi_command(int argc, char** argv, const po::options_description& visible,
                    const std::function<int(comm::Transport& transport)>& body);

// Collective, after parse_command: the inputs and the effective configuration go into `common`,
// then -o is refused if it names anything the job reads: the inputs and `also_reads` (empty
// names skipped; the files inside input directories are checked once listed, in run_scan_phase).
void start_corpus_job(comm::Transport& transport, int argc, char** argv, ParsedCommand& parsed,
                      pipeline::CommonOptions& common, const std::vector<std::string>& also_reads);

}  // namespace crd::cli
