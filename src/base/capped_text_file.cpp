// read_capped_text_file: stat, then read in blocks up to the cap.
#include "crd/base/capped_text_file.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"

namespace crd {
namespace {

struct Descriptor {  // closed whatever is thrown
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_capped_text_file(const std::string& path, const std::string& what, std::uint64_t cap) {
  const std::string name = what + " '" + path + "'";
  const std::string too_large = name + " is larger than " + human_bytes(cap) + ", more than such a list may hold";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw UsageError("cannot read " + name);
  if (S_ISDIR(st.st_mode)) throw UsageError(name + " is a directory");
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) throw UsageError(name + " is not a regular file");
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > cap) throw UsageError(too_large);
  const Descriptor in{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) throw UsageError("cannot read " + name);
  std::string text;
  char block[65536];
  for (;;) {
    const ssize_t got = ::read(in.fd, block, sizeof block);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw UsageError("cannot read " + name);
    if (got == 0) break;
    if (text.size() + static_cast<std::uint64_t>(got) > cap) throw UsageError(too_large);
    text.append(block, static_cast<std::size_t>(got));
  }
  return text;
}

}  // namespace crd
