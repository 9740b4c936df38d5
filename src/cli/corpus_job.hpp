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

// The whole frame of a command that reads and cleans a corpus as discover does but tokenizes the
// visible text instead of chunking it (neardup, quilts): corpus and cleaning options (no chunker)
// beside `own`, run options without checkpoints (its tables live only in memory), --help. After
// parsing, `check` refuses bad combinations (UsageError), then `run` runs the pipeline.
// `also_reads`, when given, names one more file the job reads (filled in by parsing), which -o
// must not name.
int run_tokenizing_command(int argc, char** argv, const std::string& usage, const po::options_description& own,
                           pipeline::CommonOptions& common, const std::function<void()>& check,
                           const std::function<void(comm::Transport&)>& run, const std::string* also_reads = nullptr);

}  // namespace crd::cli
