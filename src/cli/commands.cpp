// The subcommand table.
#include "crd/cli/commands.hpp"

#include <array>

namespace crd::cli {

const Command* find_command(const std::string& name) {
  static const std::array<Command, 1> commands{{
      {"discover", &discover_command},
  }};
  for (const auto& c : commands)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace crd::cli
