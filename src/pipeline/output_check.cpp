// Refusing an output path that would destroy something (output_check.hpp).
#include "crd/pipeline/output_check.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "crd/base/error.hpp"
#include "crd/shuffle/collectives.hpp"

namespace crd::pipeline {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Rank 0 decides, every rank raises: a file system seen differently by another rank must not
// leave it running into a collective alone.
void raise_agreed(comm::Transport& transport, const std::string& rank0_problem) {
  const std::string problem = transport.from_rank0(rank0_problem);
  if (!problem.empty()) throw UsageError(problem);
}

}  // namespace

std::string output_path_problem(const std::string& output) {
  if (output.empty()) return "option -o: the output path is empty";
  const std::string quoted = "output '" + output + "'";
  if (output.back() == '/') return quoted + " names a directory: give a file name";
  struct stat st {};
  if (::stat(output.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return quoted + " is " + kind_of(st.st_mode) + ": give a regular file name";
  } else if (errno != ENOENT && errno != ENOTDIR) {  // those two: the parent check below says why
    return quoted + ": " + std::strerror(errno);
  }
  // The result is written beside the output and renamed over it: its directory must take a new file.
  const std::filesystem::path parent = std::filesystem::path(output).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  if (::stat(dir.c_str(), &st) != 0) return quoted + ": directory '" + dir + "': " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return quoted + ": '" + dir + "' is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return quoted + ": cannot write in directory '" + dir + "': " + std::strerror(errno);
  return {};
}

std::string same_file_as_output(const std::string& output, const std::vector<std::string>& paths) {
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) return {};
  for (const auto& path : paths) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino) return path;
  }
  return {};
}

void check_output_before_run(comm::Transport& transport, const std::string& output,
                             const std::vector<std::string>& named) {
  std::string problem;
  if (transport.rank() == 0) {
    problem = output_path_problem(output);
    if (problem.empty()) {
      std::vector<std::string> paths;
      for (const auto& p : named) {
        if (!p.empty() && p[0] == '@') paths.push_back(p.substr(1));  // the list file itself
        paths.push_back(p);
      }
      const std::string same = same_file_as_output(output, paths);
      if (!same.empty())
        problem = "output '" + output + "' is the same file as '" + same + "', which this job reads: refusing to overwrite it";
    }
  }
  raise_agreed(transport, problem);
}

void check_output_is_not_input(comm::Transport& transport, const std::string& output,
                               const std::vector<io::InputFile>& files) {
  std::string problem;
  std::vector<std::string> paths;
  struct stat out {};
  // Only an existing output can be an input, and only an input of the output's size (as listed)
  // can be the same file: rerunning with the same -o costs no stat per input (55k stats were a
  // third of the listing's time on the documentation corpus).
  if (::stat(output.c_str(), &out) == 0) {
    for (const auto& f : files)
      if (f.size == static_cast<std::uint64_t>(out.st_size)) paths.push_back(f.path);
  }
  const std::string same = same_file_as_output(output, paths);
  if (!same.empty())
    problem = "output '" + output + "' is the same file as input '" + same + "': refusing to overwrite it";
  // Each rank looked at the files it holds; the lowest rank that found one speaks for all.
  for (const std::string& found : shuffle::allgather(transport, problem))
    if (!found.empty()) throw UsageError(found);
}

}  // namespace crd::pipeline
