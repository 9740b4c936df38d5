// Which node each rank's checkpoints are on, and refusing a resume that cannot find them all
// (shared_paths.hpp).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "crd/base/error.hpp"
#include "crd/pipeline/shared_paths.hpp"
#include "crd/comm/collectives.hpp"

namespace crd::pipeline {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string read_record(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}

// "" or why `text` could not be saved as `path` (then no file is left).
std::string write_record(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot save checkpoint: cannot write " + path + ": " + std::strerror(errno);
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int write_errno = errno;
  const bool closed = ::close(fd) == 0;
  if (written && closed) return {};
  const std::string why = std::strerror(written ? errno : write_errno);
  ::unlink(path.c_str());
  return "cannot save checkpoint: cannot write " + path + ": " + why;
}

}  // namespace

void check_checkpoint_nodes(comm::Transport& transport, const std::string& dir, bool resume) {
  const int rank = transport.rank();
  const int nranks = transport.size();
  const std::vector<std::string> nodes_now = comm::allgather(transport, node_name());
  const std::string record =
      (fs::path(dir) / ("rank-" + std::to_string(rank) + "-of-" + std::to_string(nranks) + ".nodes")).string();
  if (resume) {
    // What each rank finds on its node: "1" and its own record, or "0" and another rank's record of
    // this job (the same node list: its node holds some of the job's checkpoints, not its own), or
    // "" when the directory holds none.
    std::string mine = read_record(record);
    if (!mine.empty()) {
      mine = "1" + mine;
    } else {
      std::error_code ec;
      const std::string suffix = "-of-" + std::to_string(nranks) + ".nodes";
      for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
          const std::string other = read_record(entry.path().string());
          if (!other.empty()) {
            mine = "0" + other;
            break;
          }
        }
      }
    }
    const std::vector<std::string> found = comm::allgather(transport, mine);
    std::vector<std::string> nodes_then;
    for (const auto& text : found)
      if (!text.empty()) nodes_then = lines_of(text.substr(1));
    for (int r = 0; r < nranks && !nodes_then.empty(); ++r) {
      if (found[static_cast<std::size_t>(r)].rfind('1', 0) == 0) continue;
      const std::string was = static_cast<std::size_t>(r) < nodes_then.size() ? nodes_then[r] : "?";
      throw FatalError(
          "cannot resume: rank " + std::to_string(r) + " on node " + nodes_now[r] + " finds no checkpoints in " + dir +
          " (the last run had it on node " + was +
          "); a node-local --work-dir needs the same nodes in the same rank order, or use one every node shares");
    }
  }
  std::string list;
  for (const auto& node : nodes_now) list += node + '\n';
  std::string error = write_record(record, list);
  error = comm::first_error(transport, error);
  if (!error.empty()) throw FatalError(error);
}

}  // namespace crd::pipeline
