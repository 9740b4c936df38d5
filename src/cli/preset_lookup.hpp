// Finds a preset (configs/NAME.ini) given to --config by name: installed, or in the source tree.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace crd::cli {

// The directories presets are looked up in, in order: $CRD_HOME/configs (the modulefile sets
// CRD_HOME), then the executable's own ../share/crd/configs (so a moved prefix still finds its
// presets), then `source_configs`, the configs/ of the source tree crd was built from (so a crd
// run from its build tree, not installed, finds them too). `exe` is the running program's path
// (/proc/self/exe); empty entries are left out.
std::vector<std::string> preset_dirs(const char* crd_home, const std::string& exe,
                                     const std::string& source_configs = "");

// The file --config VALUE names: VALUE itself when it is a file (not a directory: a local folder
// named like a preset does not hide it) or contains a '/', else the first of DIR/VALUE and
// DIR/VALUE.ini that exists over `dirs`; nullopt when there is none (the caller then reports VALUE
// as unreadable, saying where it looked: preset_search_note).
std::optional<std::string> find_preset(const std::string& value, const std::vector<std::string>& dirs);

// This process's preset directories: preset_dirs of its environment, executable and source tree.
std::vector<std::string> this_process_preset_dirs();

// For the error when VALUE names no readable file: where it was looked for as a preset ("" when
// VALUE is a path, which is never looked up).
std::string preset_search_note(const std::string& value, const std::vector<std::string>& dirs);

}  // namespace crd::cli
