// The table of crd's commands: each command is one entry (name, summary, the option sets it reads,
// whether it is an MPI job, its run function). main's dispatch, `crd --help`, every command's
// --help, the bash completion and the docs' command and option lists are generated from it.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "command_settings.hpp"
#include "option_sets.hpp"

namespace crd::comm {
class Transport;
}

namespace crd::cli {

// Job: every rank of an MPI job (or a one-rank job without mpirun) runs it; its inputs and the
// files its options name are recorded and protected from -o (command_frame.cpp).
// Local: one process, no MPI.
enum class Frame { Job, Local };

// What a command's run function gets once its options are parsed.
struct Invocation {
  Settings& settings;
  std::vector<std::string> inputs;  // Local commands; a Job's are in settings.common.inputs
  comm::Transport* transport;       // Job commands only
};

struct Command {
  const char* name;
  const char* summary;      // one line: crd --help, docs/options.md and the man page
  const char* synopsis;     // "crd discover [options] INPUT… -o OUT.h5"
  const char* description;  // the paragraph under the synopsis in the command's --help
  Frame frame;
  std::vector<OptionSet> sets;             // the options it reads, by set (--help lists them)
  std::vector<std::string_view> required;  // options it cannot run without
  const char* no_inputs;                   // the usage error when no positional input is given
  void (*defaults)(Settings&);             // its own defaults, before binding (nullptr: none)
  void (*check)(const Settings&);          // refuses option combinations (UsageError), before the job starts
  int (*run)(Invocation&);
};

std::span<const Command> commands();
const Command* find_command(std::string_view name);

// The command's options bound to `settings` (its defaults applied first), plus --help's caption.
OptionBinder bind_options(const Command& command, Settings& settings);
std::string help_caption(const Command& command);

// The frames (command_frame.cpp): answers --help, else parses and runs the command, as a job on an
// MPI transport or locally. Returns the exit status. (run_pipeline_on in crd/cli/main.hpp runs a
// Job command on a given transport.)
int run_command_line(const Command& command, int argc, char** argv);

// Runs a command body and turns its errors into an exit status: UsageError → 2, FatalError → 1,
// with one line on stderr when `print` (rank 0 only in a job: every rank raises these alike).
// Any other exception: in a job (`transport` set) only this rank knows it, so the job is ended
// naming the rank (Transport::abort_all); without one it is a fatal error.
int run_reporting_errors(const std::string& command, bool print, comm::Transport* transport,
                         const std::function<int()>& body);

// Run functions (one file each).
int run_discover(Invocation& in);
int run_label(Invocation& in);
int run_detect(Invocation& in);
void check_detect(const Settings& s);  // detect and run
int run_run(Invocation& in);
int run_merge(Invocation& in);
int run_neardup(Invocation& in);
void check_neardup(const Settings& s);
int run_quilts(Invocation& in);
void check_quilts(const Settings& s);
int run_compare_hashing(Invocation& in);
int run_inspect(Invocation& in);
int run_check(Invocation& in);
void check_check(const Settings& s);
void check_defaults(Settings& s);
void report_defaults(Settings& s);
void quilts_defaults(Settings& s);
void check_compare_hashing(const Settings& s);
int run_report(Invocation& in);
int run_compare(Invocation& in);

}  // namespace crd::cli
