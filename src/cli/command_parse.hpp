// Parsing a command's arguments (after the subcommand) against its bound options: the command
// line, then the --config INI file if any (the command line wins), then the effective
// configuration rendered back as INI for /config in the result file.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "dependent_defaults.hpp"
#include "option_binder.hpp"

namespace crd::cli {

struct ParsedCommand {
  boost::program_options::variables_map vm;
  std::vector<std::string> inputs;   // the positional arguments
  std::string config_ini;            // effective options, INI (/config)
  std::string results_config;        // its lines of options that change results (checkpoint identity)
  std::string config_file;           // the --config file read ("" = none)
  std::vector<std::string> ignored;  // options of other crd commands in the config file, in file order
  std::vector<DependentDefault> dependent_defaults;  // defaults set by another option's value
};

// Throws UsageError with a one-line message; UsageError(no_inputs) when there is no positional
// argument, unless no_inputs is null. A config file may hold any crd option: those the command
// does not read are listed in `ignored`; a name that is no crd option is a usage error naming the
// closest one.
ParsedCommand parse_command(int argc, char** argv, const OptionBinder& options, const char* no_inputs);

// True if the arguments after the subcommand ask for help (-h, --help).
bool asks_for_help(int argc, char** argv);

std::string join_command_line(int argc, char** argv);

}  // namespace crd::cli
