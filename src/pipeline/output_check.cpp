// Refusing an output path that would destroy something (output_check.hpp).
#include "crd/pipeline/output_check.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>

#include "crd/base/error.hpp"
#include "crd/base/file_kind.hpp"
#include "crd/comm/collectives.hpp"

namespace crd::pipeline {
namespace {
namespace fs = std::filesystem;

// Rank 0 decides, every rank raises: a file system seen differently by another rank must not
// leave it running into a collective alone.
void raise_agreed(comm::Transport& transport, const std::string& rank0_problem) {
  const std::string problem = comm::broadcast_from_rank0<std::string>(transport, rank0_problem);
  if (!problem.empty()) throw UsageError(problem);
}

std::string same_file_problem(const std::string& output, const std::string& same) {
  return "output '" + output + "' is the same file as '" + same + "', which this job reads: refusing to overwrite it";
}

std::string work_dir_problem(const std::string& work_dir, const std::string& input_dir) {
  return "--work-dir '" + work_dir + "' is inside input directory '" + input_dir +
         "': its checkpoints would be read as input; put it elsewhere";
}

// is_at_or_under by name, for paths that need not exist yet (a --work-dir is created by the job):
// both made absolute, with the links of their existing parts resolved.
bool named_at_or_under(const std::string& path, const std::string& dir) {
  if (path.empty() || dir.empty()) return false;
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return false;
  const fs::path d = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (ec) return false;
  auto pi = p.begin();
  for (auto di = d.begin(); di != d.end(); ++di, ++pi) {
    if (di->empty() && std::next(di) == d.end()) break;  // a trailing separator
    if (pi == p.end() || *pi != *di) return false;
  }
  return true;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string output_path_problem(const std::string& output) {
  if (output.empty()) return "option -o: the output path is empty";
  const std::string quoted = "output '" + output + "'";
  if (output.back() == '/') return quoted + " names a directory: give a file name";
  if (const std::string kind = replace_problem(output); !kind.empty())
    return quoted + " " + kind + ": give a regular file name";
  // The result is written beside the output and renamed over it: its directory must take a new file.
  struct stat st {};
  const fs::path parent = fs::path(output).parent_path();
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

bool is_at_or_under(const std::string& path, const std::string& dir) {
  struct stat target {};
  if (path.empty() || ::stat(dir.c_str(), &target) != 0) return false;
  std::error_code ec;
  // Links in the part that exists are resolved; the rest is only spelled, and cannot be `dir`.
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return false;
  for (;; p = p.parent_path()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino) return true;
    if (p == p.parent_path()) return false;
  }
}

std::string output_problem(const std::string& output, const std::vector<std::string>& named,
                           const std::string& work_dir) {
  if (std::string problem = output_path_problem(output); !problem.empty()) return problem;
  std::vector<std::string> paths;
  for (const auto& p : named) {
    if (!p.empty() && p[0] == '@') paths.push_back(p.substr(1));  // the list file itself
    paths.push_back(p);
  }
  if (const std::string same = same_file_as_output(output, paths); !same.empty()) return same_file_problem(output, same);
  if (work_dir.empty()) return {};
  if (is_at_or_under(output, work_dir) || named_at_or_under(output, work_dir))
    return "output '" + output + "' is inside --work-dir '" + work_dir +
           "', which holds the checkpoints: write the result elsewhere";
  // The job would make its checkpoint directory there, and the result could not take its name.
  if (is_at_or_under(work_dir, output) || named_at_or_under(work_dir, output))
    return "--work-dir '" + work_dir + "' is inside output '" + output +
           "': the result is renamed to that name at the end; put the checkpoints elsewhere";
  for (const auto& p : named)
    if (!p.empty() && p[0] != '@' && is_directory(p) && is_at_or_under(work_dir, p)) return work_dir_problem(work_dir, p);
  return {};
}

void check_output_before_run(comm::Transport& transport, const std::string& output,
                             const std::vector<std::string>& named, const std::string& work_dir) {
  raise_agreed(transport, transport.rank() == 0 ? output_problem(output, named, work_dir) : std::string());
}

io::ExpandOptions guarded_expansion(const io::ExpandOptions& expand, const std::string& output,
                                    const std::string& work_dir) {
  io::ExpandOptions guarded = expand;
  guarded.check_named = [output, work_dir](const std::string& path, bool directory) {
    if (!directory) {
      if (!same_file_as_output(output, {path}).empty()) throw UsageError(same_file_problem(output, "@" + path));
    } else if (!work_dir.empty() && is_at_or_under(work_dir, path)) {
      throw UsageError(work_dir_problem(work_dir, path));
    }
  };
  return guarded;
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
  for (const std::string& found : comm::allgather(transport, problem))
    if (!found.empty()) throw UsageError(found);
}

}  // namespace crd::pipeline
