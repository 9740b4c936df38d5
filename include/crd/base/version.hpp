// The crd version string, its build's commit and type, and the HDF5 schema version written into every result file.
#pragma once

#include <string_view>

namespace crd {

std::string_view version();
// The git commit crd was built from ("unknown" outside a git checkout) and the CMake build type.
std::string_view git_commit();
std::string_view build_type();
// Bumped whenever a dataset or attribute changes meaning; readers check it (docs/schema.md).
inline constexpr int kSchemaVersion = 1;

}  // namespace crd
