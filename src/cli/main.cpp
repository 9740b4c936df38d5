// crd's command line: subcommand dispatch, help and version, and the error → exit-status policy.
//
// Exit status: 0 success, 1 fatal error (cannot continue), 2 usage error. UsageError and
// FatalError are raised on every rank alike (options and inputs are the same everywhere, and
// the writers agree before throwing), so rank 0 prints one line and all ranks exit cleanly. Any
// other exception is known to one rank only: it aborts the whole job, naming the rank.
#include "crd/cli/main.hpp"

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/base/printable.hpp"
#include "crd/base/version.hpp"
#include "crd/comm/transport.hpp"

namespace crd::cli {
namespace {

void print_usage(std::ostream& out) {
  out << "crd " << version() << " — precise content-reuse detection (Ardi & Heidemann, SIGCOMM CCR 2019)\n\n"
      << "usage: mpirun -np N crd COMMAND [options] INPUT…\n\n"
      << "commands:\n"
      << "  discover   blind discovery: count every chunk and file, label the frequent ones (HDF5 out)\n"
      << "  label      informed discovery: turn an expert corpus into a labeled set\n"
      << "  detect     score pages and URL neighborhoods against labeled sets\n"
      << "  run        discover then detect, reading the corpus once\n"
      << "  merge      sum discover --keep-counts results (months, batches) and label the sum (docs/merge.md)\n"
      << "  neardup    near-duplicate pages by shingling, simhash or both (seed 002; docs/neardup.md)\n"
      << "  quilts     pages stitched from patches of several others (seed 003; docs/quilts.md)\n"
      << "  inspect    human summary of a result file (no MPI needed)\n"
      << "  check      check single pages against a labeled set (no MPI needed)\n"
      << "  report     self-contained HTML review of a result, with stop-list pruning (no MPI needed)\n"
      << "  compare    documents against each other (and a labeled set) by shared sentences (no MPI needed)\n"
      << "  compare-hashing  SHA-1 chunks against Nilsimsa, TLSH and ssdeep on a corpus with known truth\n\n"
      << "INPUT: .warc[.gz] / .arc[.gz] files, directories (walked recursively), @LIST files.\n"
      << "crd COMMAND --help lists a command's options; docs/ has the method, schema and tuning.\n";
}

}  // namespace

int run_main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (command == "--version" || command == "-V") {
    std::cout << "crd " << version() << " (commit " << git_commit() << ", " << build_type() << " build)\n";
    return 0;
  }
  const Command* cmd = find_command(command);
  if (cmd == nullptr) {
    std::fprintf(stderr, "crd: error: unknown command '%s' (try crd --help)\n", printable(command).c_str());
    return 2;
  }
  // Commands that start MPI report their own errors inside the MPI session (pipeline_commands.cpp).
  return run_reporting_errors(command, true, nullptr, [&] { return cmd->run(argc - 1, argv + 1); });
}

int run_reporting_errors(const std::string& command, bool print, comm::Transport* transport,
                         const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    if (print) std::fprintf(stderr, "crd %s: error: %s\n", command.c_str(), printable(e.what()).c_str());
    return 2;
  } catch (const FatalError& e) {
    if (print) std::fprintf(stderr, "crd %s: fatal: %s\n", command.c_str(), printable(e.what()).c_str());
    return 1;
  } catch (const std::exception& e) {
    if (transport != nullptr) transport->abort_all(command + ": " + e.what());
    std::fprintf(stderr, "crd %s: fatal: %s\n", command.c_str(), printable(e.what()).c_str());
    return 1;
  }
}

}  // namespace crd::cli
