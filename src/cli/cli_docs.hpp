// Text generated from the command table and the option registry: `crd --help`, the bash
// completion script (`crd --completion bash`) and the README's command and option lists
// (`crd --markdown commands|options`, checked by tests/cli/test_readme_lists.py).
#pragma once

#include <ostream>
#include <string>

namespace crd::cli {

void print_usage(std::ostream& out);
std::string bash_completion();
std::string markdown_commands();
std::string markdown_options();

}  // namespace crd::cli
