// The frames every command runs in (commands.hpp), assembled once: --help answered without MPI;
// a Job command parses on every rank of an MPI transport, records its inputs and effective
// options, and refuses an -o naming anything it reads before any work; a Local command parses
// and runs in this process. Errors become exit statuses (run_reporting_errors).
#include <cstdio>
#include <iostream>
#include <new>

#include "command_parse.hpp"
#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/base/printable.hpp"
#include "crd/cli/main.hpp"
#include "crd/comm/job_transport.hpp"
#include "crd/pipeline/output_check.hpp"
#include "crd/pipeline/run_report.hpp"
#include "crd/pipeline/shared_paths.hpp"
#include "dependent_defaults.hpp"

namespace crd::cli {
namespace {

// --verbose: the config file's options of other commands, said once (rank 0 in a job).
void say_ignored(const Command& command, const Settings& s, const ParsedCommand& parsed, bool print) {
  if (!s.verbose || !print || parsed.ignored.empty()) return;
  std::string names;
  for (const auto& name : parsed.ignored) names += (names.empty() ? "" : ", ") + name;
  std::fprintf(stderr, "crd %s: config file '%s': ignoring options of other commands: %s\n", command.name,
               printable(parsed.config_file).c_str(), printable(names).c_str());
}

// Every check across options, before any input is read or the output opened: the shared options
// then the command's own (UsageError names the option).
void check_options(const Command& command, const Settings& s) {
  if (const std::string problem = s.common.problem(); !problem.empty()) throw UsageError(problem);
  if (command.check != nullptr) command.check(s);
}

// Collective, after parsing: the inputs and the effective configuration go into `common`, then -o
// is refused if it names anything the job reads: the inputs and the files its options name (the
// files inside input directories are checked once listed, in run_scan_phase).
void start_job(comm::Transport& transport, int argc, char** argv, ParsedCommand& parsed, const OptionBinder& options,
               pipeline::CommonOptions& common) {
  common.inputs = std::move(parsed.inputs);
  common.info = {argv[0], join_command_line(argc, argv), parsed.config_ini, parsed.results_config};
  // --stop-chunks, --labels…: part of a checkpoint's job identity (the config file is not).
  common.side_inputs = options.read_paths(Effect::ChangesResults);
  std::vector<std::string> reads = common.inputs;
  for (const auto& path : options.read_paths(std::nullopt)) reads.push_back(path);
  pipeline::check_output_before_run(transport, common.output, reads, common.work_dir);
  pipeline::check_output_dir_shared(transport, common.output);
}

int run_job(const Command& command, comm::Transport& transport, int argc, char** argv) {
  Settings s;
  const OptionBinder options = bind_options(command, s);
  // Errors are reported here, while the transport is up: rank 0 prints agreed errors, every rank exits alike.
  const bool print = transport.rank() == 0;
  return run_reporting_errors(command.name, print, &transport, [&] {
    auto parsed = parse_command(argc, argv, options, command.no_inputs);
    s.detect.detect.page_threshold_chosen = option_given(parsed.vm, "page-threshold");
    // --chunker winnow+scan flags pages by the combined rule (detect's problem() needs to know).
    s.detect.detect.combined = s.common.scan.chunker == chunk::ChunkerKind::WinnowScan;
    say_ignored(command, s, parsed, print);
    check_options(command, s);
    start_job(transport, argc, argv, parsed, options, s.common);
    Invocation in{s, {}, &transport};
    return command.run(in);
  });
}

int run_local(const Command& command, int argc, char** argv) {
  return run_reporting_errors(command.name, true, nullptr, [&] {
    Settings s;
    const OptionBinder options = bind_options(command, s);
    auto parsed = parse_command(argc, argv, options, command.no_inputs);
    say_ignored(command, s, parsed, true);
    check_options(command, s);
    Invocation in{s, std::move(parsed.inputs), nullptr};
    return command.run(in);
  });
}

}  // namespace

int run_command_line(const Command& command, int argc, char** argv) {
  if (asks_for_help(argc, argv)) {
    Settings s;
    auto help = bind_options(command, s).help(help_caption(command));
    help.add_options()("help,h", "show this help");
    std::cout << help << "\n";
    return 0;
  }
  if (command.frame == Frame::Local) return run_local(command, argc, argv);
  comm::JobTransport job(argc, argv);
  return run_job(command, job.transport(), argc, argv);
}

int run_pipeline_on(comm::Transport& transport, int argc, char** argv) {
  const Command* command = argc > 0 ? find_command(argv[0]) : nullptr;
  if (command == nullptr || command->frame != Frame::Job)
    throw UsageError("not a job command: '" + std::string(argc > 0 ? argv[0] : "") + "'");
  return run_job(*command, transport, argc, argv);
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
  } catch (const std::bad_alloc&) {
    // One rank ran out: say which, where, and what helps, rather than only "std::bad_alloc".
    const std::string phase = pipeline::last_started_phase();
    std::string line = "out of memory";
    if (transport != nullptr)
      line += " on rank " + std::to_string(transport->rank()) + " of " + std::to_string(transport->size());
    line += phase.empty() ? std::string(" (std::bad_alloc)") : " in phase '" + phase + "' (std::bad_alloc)";
    line += transport != nullptr
                ? ": give --memory the memory a rank may use (crd then plans passes or names a rank count that fits), "
                  "or run on more ranks or nodes"
                : ": give it a smaller input, or run it on a machine with more memory";
    if (transport != nullptr) transport->abort_all(command + ": " + line);
    std::fprintf(stderr, "crd %s: fatal: %s\n", command.c_str(), line.c_str());
    return 1;
  } catch (const std::exception& e) {
    if (transport != nullptr) transport->abort_all(command + ": " + e.what());
    std::fprintf(stderr, "crd %s: fatal: %s\n", command.c_str(), printable(e.what()).c_str());
    return 1;
  }
}

}  // namespace crd::cli
