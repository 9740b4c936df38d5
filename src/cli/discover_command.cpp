// crd discover: options → run_discover under MPI.
#include <iostream>

#include "crd/cli/commands.hpp"
#include "crd/cli/option_groups.hpp"
#include "crd/comm/mpi_transport.hpp"
#include "crd/core/error.hpp"
#include "crd/pipeline/discover_pipeline.hpp"

namespace crd::cli {

bool wants_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

int discover_command(int argc, char** argv) {
  pipeline::CommonOptions common;
  pipeline::DiscoverOptions options;
  std::string config_path;
  po::options_description visible("crd discover [options] INPUT… -o OUT.h5\n\n"
                                  "Blind discovery (paper §4.2): count every chunk and file of the corpus across all\n"
                                  "ranks and label those seen more than a threshold, minus stop chunks");
  visible.add(input_options(common)).add(discovery_options(options, true)).add(run_options(common, config_path));
  visible.add_options()("help,h", "show this help");
  if (wants_help(argc, argv)) {
    std::cout << visible << "\n";
    return 0;
  }
  comm::MpiSession session(argc, argv);
  comm::MpiTransport transport;
  auto parsed = parse_command(argc, argv, visible, "input", "config");
  if (parsed.vm.count("input") == 0) throw UsageError("no input given (files, directories or @LIST)");
  common.inputs = parsed.vm["input"].as<std::vector<std::string>>();
  common.info = {"discover", join_command_line(argc, argv), parsed.config_ini};
  pipeline::run_discover(common, options, transport);
  return 0;
}

}  // namespace crd::cli
