// The crd command line: parses the subcommand and its options, then calls a pipeline.
#pragma once

namespace crd::cli {

// Returns the process exit status: 0 success, 1 fatal error, 2 usage error.
int run_main(int argc, char** argv);

}  // namespace crd::cli
