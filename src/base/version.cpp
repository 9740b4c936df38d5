// The version string comes from CMake's project(VERSION ...).
#include "crd/base/version.hpp"

namespace crd {

std::string_view version() { return CRD_VERSION_STRING; }

}  // namespace crd
