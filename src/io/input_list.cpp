// read_input_list: an @LIST file read in blocks, its type and size checked before and while reading.
#include "input_list.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"

namespace crd::io::detail {
namespace {

// Closes the list's descriptor whatever is thrown while it is read.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw UsageError("input list @" + path + ": " + why);
}

}  // namespace

void read_input_list(const std::string& path, const std::function<void(std::string_view, std::size_t)>& on_line) {
  // The type is checked on the path before opening: opening a fifo blocks until a writer comes,
  // which is what a pipe given on purpose wants, but a device or socket must not be opened at all.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) refuse(path, std::string("cannot read it: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) refuse(path, "is a directory, not a list of inputs");
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) refuse(path, "is not a regular file");
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > kMaxListBytes)
    // The size in bytes: a file one byte over the cap would read "256.00 MiB" in human_bytes.
    refuse(path, "is " + std::to_string(st.st_size) + " bytes, more than an input list may hold (" +
                     human_bytes(kMaxListBytes) + ")");
  const Descriptor in{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) refuse(path, std::string("cannot read it: ") + std::strerror(errno));

  std::string line;
  std::size_t number = 1;
  std::uint64_t total = 0;
  char block[65536];
  for (;;) {
    const ssize_t got = ::read(in.fd, block, sizeof block);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) refuse(path, std::string("cannot read it: ") + std::strerror(errno));
    if (got == 0) break;
    total += static_cast<std::uint64_t>(got);
    if (total > kMaxListBytes)  // a file grown since its stat, or a pipe that does not end
      refuse(path, "holds more than an input list may (" + human_bytes(kMaxListBytes) + ")");
    std::string_view rest(block, static_cast<std::size_t>(got));
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      const std::string_view part = rest.substr(0, nl);
      if (line.size() + part.size() > kMaxListLine)
        refuse(path, "line " + std::to_string(number) + " is longer than " + std::to_string(kMaxListLine) +
                         " bytes (is it a list of inputs?)");
      line.append(part);
      if (nl == std::string_view::npos) break;
      on_line(line, number++);
      line.clear();
      rest.remove_prefix(nl + 1);
    }
  }
  if (!line.empty()) on_line(line, number);
}

}  // namespace crd::io::detail
