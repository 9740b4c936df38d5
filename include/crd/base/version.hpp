// The crd version string and the HDF5 schema version written into every result file.
#pragma once

#include <string_view>

namespace crd {

std::string_view version();
// Bumped whenever a dataset or attribute changes meaning; readers check it (docs/schema.md).
inline constexpr int kSchemaVersion = 1;

}  // namespace crd
