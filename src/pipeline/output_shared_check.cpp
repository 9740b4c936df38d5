// Refusing an output directory that some ranks see differently from rank 0 (shared_paths.hpp).
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "crd/comm/collectives.hpp"
#include "crd/base/error.hpp"
#include "crd/pipeline/shared_paths.hpp"

namespace crd::pipeline {
namespace {

std::string random_hex() {
  std::random_device device;
  std::ostringstream hex;
  hex << std::hex << device() << device() << ::getpid();
  return hex.str();
}

std::string read_small_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[256];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// Rank 0's probe in `dir`: "NAME\nCONTENT" on success, "" if it could not be made. Only the name travels: each rank looks for it in the output's directory as it
// resolves it (a relative -o is relative to each rank's working directory).
std::string make_probe(const std::string& dir) {
  const std::string content = node_name() + " " + random_hex();
  const std::string name = ".crd-shared-probe-" + random_hex();
  const std::string path = (std::filesystem::path(dir) / name).string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return {};
  const bool written = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
  if (::close(fd) != 0 || !written) {
    ::unlink(path.c_str());
    return {};
  }
  return name + "\n" + content;
}

}  // namespace

std::string node_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "?";
  return name;
}

void check_output_dir_shared(comm::Transport& transport, const std::string& output) {
  if (transport.size() == 1) return;
  const std::filesystem::path parent = std::filesystem::path(output).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  // A probe rank 0 cannot make (a full disk, no permission) is not this check's to report: creating
  // the result fails next, with its own one line (tests/output/test_disk_full.py). Then no rank
  // has a probe to look for, and the check is skipped.
  const std::string probe = comm::broadcast_from_rank0<std::string>(transport, transport.rank() == 0 ? make_probe(dir) : "");
  const auto newline = probe.find('\n');
  std::string problem;
  if (transport.rank() != 0 && newline != std::string::npos &&
      read_small_file((std::filesystem::path(dir) / probe.substr(0, newline)).string()) != probe.substr(newline + 1)) {
    problem = "on node " + node_name() + ", output directory '" + dir + "' is not the one rank 0 (node " +
              probe.substr(newline + 1, probe.find(' ', newline) - newline - 1) +
              ") writes to: the output must be on a file system every node shares, not a node-local one such as /tmp";
  }
  const std::string first = comm::first_error(transport, problem);  // every rank has read the probe by now
  if (transport.rank() == 0 && newline != std::string::npos)
    ::unlink((std::filesystem::path(dir) / probe.substr(0, newline)).c_str());
  if (!first.empty()) throw UsageError("output '" + output + "': " + first);
}

}  // namespace crd::pipeline
