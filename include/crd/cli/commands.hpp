// The table of subcommands.
#pragma once

#include <string>

namespace crd::cli {

struct Command {
  const char* name;
  // argv[0] is the subcommand name. Returns the exit status; throws UsageError/FatalError.
  int (*run)(int argc, char** argv);
};

const Command* find_command(const std::string& name);

// Subcommand entry points (one file each).
int discover_command(int argc, char** argv);
int label_command(int argc, char** argv);
int detect_command(int argc, char** argv);
int run_command(int argc, char** argv);
int inspect_command(int argc, char** argv);
int check_command(int argc, char** argv);

}  // namespace crd::cli
