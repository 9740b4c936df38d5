// Finds a preset (configs/NAME.ini) given to --config by name, in an installed crd.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace crd::cli {

// The directories presets are looked up in, in order: $CRD_HOME/configs (the modulefile sets
// CRD_HOME), then the executable's own ../share/crd/configs (so a moved prefix still finds its
// presets). `exe` is the running program's path (/proc/self/exe); empty entries are left out.
std::vector<std::string> preset_dirs(const char* crd_home, const std::string& exe);

// The file --config VALUE names: VALUE itself when it exists or contains a '/', else the first of
// DIR/VALUE and DIR/VALUE.ini that exists over `dirs`; nullopt when there is none (the caller then
// reports VALUE as unreadable).
std::optional<std::string> find_preset(const std::string& value, const std::vector<std::string>& dirs);

// find_preset over preset_dirs of this process's environment and executable, or VALUE unchanged.
std::string resolve_config_path(const std::string& value);

}  // namespace crd::cli
