// Refusing special files by their kind before they are opened (file_kind.hpp).
#include "crd/base/file_kind.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace crd {
namespace {

std::string kind_phrase(mode_t mode) {
  if (S_ISLNK(mode)) return "is a symbolic link";
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device";
  if (S_ISSOCK(mode)) return "is a socket";
  return "is not a regular file";
}

}  // namespace

std::string replace_problem(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return {};
    return std::string("cannot be examined: ") + std::strerror(errno);
  }
  return S_ISREG(st.st_mode) ? std::string() : kind_phrase(st.st_mode);
}

std::string read_problem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return S_ISREG(st.st_mode) ? std::string() : kind_phrase(st.st_mode);
}

}  // namespace crd
