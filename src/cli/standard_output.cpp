// Standard output checked at exit (standard_output.hpp).
#include "standard_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace crd::cli {

void keep_standard_streams_apart() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free number: this one.
    const int opened = ::open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
    if (opened >= 0 && opened != fd) ::close(opened);
  }
}

int finish_standard_output(int status) {
  // std::cout writes through stdio (synchronised, the default), so stdout's error flag and its
  // last flush see every write. stdio first: a failed flush of cout would drop the buffer and
  // lose the reason (errno) with it.
  bool failed = false;
  int error = 0;
  if (std::fflush(stdout) != 0) {
    failed = true;
    error = errno;
  }
  std::cout.flush();
  if (std::cout.bad() || std::ferror(stdout) != 0) failed = true;
  // A write that failed earlier, its buffer dropped, left nothing for the last flush to fail on,
  // and its errno is gone. A write of nothing asks the descriptor again: a closed (read-only)
  // stdout and a full device still say why; a full file system may not.
  if (failed && error == 0 && ::write(STDOUT_FILENO, "", 0) < 0) error = errno;
  if (std::fclose(stdout) != 0 && !failed) {
    failed = true;
    error = errno;
  }
  if (!failed) return status;
  std::fprintf(stderr, "crd: error: cannot write standard output%s%s\n", error != 0 ? ": " : "",
               error != 0 ? std::strerror(error) : "");
  return status != 0 ? status : 1;
}

}  // namespace crd::cli
