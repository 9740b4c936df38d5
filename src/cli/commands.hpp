// The table of subcommands.
#pragma once

#include <functional>
#include <string>

namespace crd::comm {
class Transport;
}

namespace crd::cli {

struct Command {
  const char* name;
  // argv[0] is the subcommand name. Returns the exit status; throws UsageError/FatalError.
  int (*run)(int argc, char** argv);
};

const Command* find_command(const std::string& name);

// Runs a command body and turns its errors into an exit status: UsageError → 2, FatalError → 1,
// with one line on stderr when `print` (rank 0 only in a job: every rank raises these alike).
// Any other exception: in a job (`transport` set) only this rank knows it, so the job is ended
// naming the rank (Transport::abort_all); without one it is a fatal error.
int run_reporting_errors(const std::string& command, bool print, comm::Transport* transport,
                         const std::function<int()>& body);

// inspect and report read result files: the error when none is given.
inline constexpr const char* kNoResultFile = "no result file given";

// Subcommand entry points (one file each).
int discover_command(int argc, char** argv);
int label_command(int argc, char** argv);
int detect_command(int argc, char** argv);
int run_command(int argc, char** argv);
int inspect_command(int argc, char** argv);
int check_command(int argc, char** argv);
int report_command(int argc, char** argv);
int neardup_command(int argc, char** argv);
int quilts_command(int argc, char** argv);
int compare_hashing_command(int argc, char** argv);
int merge_command(int argc, char** argv);
int compare_command(int argc, char** argv);

}  // namespace crd::cli
