// Preset lookup by name: an installed crd reads `--config quickstart` from PREFIX/share/crd/configs.
#include "preset_lookup.hpp"

#include <cstdlib>
#include <filesystem>

namespace crd::cli {
namespace fs = std::filesystem;

std::vector<std::string> preset_dirs(const char* crd_home, const std::string& exe, const std::string& source_configs) {
  std::vector<std::string> dirs;
  if (crd_home != nullptr && *crd_home != '\0') dirs.push_back((fs::path(crd_home) / "configs").string());
  if (!exe.empty()) {
    // PREFIX/bin/crd -> PREFIX/share/crd/configs
    dirs.push_back((fs::path(exe).parent_path().parent_path() / "share" / "crd" / "configs").string());
  }
  if (!source_configs.empty()) dirs.push_back(source_configs);
  return dirs;
}

std::optional<std::string> find_preset(const std::string& value, const std::vector<std::string>& dirs) {
  std::error_code ec;
  if (value.empty() || value.find('/') != std::string::npos) return value;
  if (fs::exists(value, ec) && !fs::is_directory(value, ec)) return value;
  for (const auto& dir : dirs) {
    for (const std::string& name : {value, value + ".ini"}) {
      const fs::path candidate = fs::path(dir) / name;
      if (fs::is_regular_file(candidate, ec)) return candidate.string();
    }
  }
  return std::nullopt;
}

std::vector<std::string> this_process_preset_dirs() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return preset_dirs(std::getenv("CRD_HOME"), ec ? std::string() : exe.string(), CRD_SOURCE_CONFIGS_DIR);
}

std::string preset_search_note(const std::string& value, const std::vector<std::string>& dirs) {
  if (value.empty() || value.find('/') != std::string::npos) return "";
  std::string out = " (no preset '" + value + "' or '" + value + ".ini' in";
  for (std::size_t i = 0; i < dirs.size(); ++i) out += (i == 0 ? " " : ", ") + dirs[i];
  return out + (dirs.empty() ? " any preset directory)" : ")");
}

}  // namespace crd::cli
