// crd's command line: subcommand dispatch (from the command table, commands.cpp), version, the
// generated help, completion and docs, and the error → exit-status policy.
//
// Exit status: 0 success, 1 fatal error (cannot continue) or standard output not written in full
// (standard_output.hpp), 2 usage error. UsageError and
// FatalError are raised on every rank alike (options and inputs are the same everywhere, and
// the writers agree before throwing), so rank 0 prints one line and all ranks exit cleanly. Any
// other exception is known to one rank only: it aborts the whole job, naming the rank.
#include "crd/cli/main.hpp"

#include <cstdio>
#include <iostream>
#include <string>

#include "cli_docs.hpp"
#include "commands.hpp"
#include "crd/base/printable.hpp"
#include "crd/base/version.hpp"
#include "standard_output.hpp"

namespace crd::cli {

namespace {

int dispatch(int argc, char** argv) {
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
  const std::string what = argc > 2 ? argv[2] : "";
  if (command == "--completion") {
    if (what != "bash") {
      std::fprintf(stderr, "crd: error: --completion takes 'bash'\n");
      return 2;
    }
    std::cout << bash_completion();
    return 0;
  }
  if (command == "--markdown") {
    if (what != "commands" && what != "options") {
      std::fprintf(stderr, "crd: error: --markdown takes 'commands' or 'options'\n");
      return 2;
    }
    std::cout << (what == "commands" ? markdown_commands() : markdown_options());
    return 0;
  }
  if (command == "--man") {
    std::cout << man_page();
    return 0;
  }
  const Command* cmd = find_command(command);
  if (cmd == nullptr) {
    std::fprintf(stderr, "crd: error: unknown command '%s' (try crd --help)\n", printable(command).c_str());
    return 2;
  }
  // Job commands report their own errors inside the MPI session (command_frame.cpp).
  return run_reporting_errors(command, true, nullptr, [&] { return run_command_line(*cmd, argc - 1, argv + 1); });
}

}  // namespace

int run_main(int argc, char** argv) {
  keep_standard_streams_apart();
  return finish_standard_output(dispatch(argc, argv));
}

}  // namespace crd::cli
