// The subcommand table.
#include "commands.hpp"

#include <array>

namespace crd::cli {

const Command* find_command(const std::string& name) {
  static const Command commands[] = {
      {"discover", &discover_command},
      {"label", &label_command},
      {"detect", &detect_command},
      {"run", &run_command},
      {"inspect", &inspect_command},
      {"check", &check_command},
      {"report", &report_command},
      {"neardup", &neardup_command},
      {"quilts", &quilts_command},
      {"compare-hashing", &compare_hashing_command},
      {"merge", &merge_command},
      {"compare", &compare_command},
  };
  for (const auto& c : commands)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace crd::cli
