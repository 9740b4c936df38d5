// The version, commit and build type come from CMake (project(VERSION ...), cmake/Version.cmake).
#include "crd/base/version.hpp"

namespace crd {

std::string_view version() { return CRD_VERSION_STRING; }
std::string_view git_commit() { return CRD_GIT_COMMIT_STRING; }
std::string_view build_type() { return CRD_BUILD_TYPE_STRING; }

}  // namespace crd
