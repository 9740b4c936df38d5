// Text generated from the command table and the option registry: `crd --help`, the bash
// completion script (`crd --completion bash`), the command and option reference of docs/options.md
// (`crd --markdown commands|options`) and the man page (`crd --man`), checked by
// tests/cli/test_cli_lists.py.
#pragma once

#include <ostream>
#include <string>

namespace crd::cli {

void print_usage(std::ostream& out);
std::string bash_completion();
std::string markdown_commands();
std::string markdown_options();
// The man page crd.1 (roff): synopsis, commands and every option by group (`crd --man`; cmake
// --install puts it in share/man/man1).
std::string man_page();

}  // namespace crd::cli
