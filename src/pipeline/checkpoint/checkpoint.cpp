// Checkpoint files, the job fingerprint and the fault-injection hook.
#include "crd/pipeline/checkpoint.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "crd/base/error.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/pipeline/shared_paths.hpp"
#include "checkpoint_file.hpp"

namespace crd::pipeline {
namespace fs = std::filesystem;

Checkpoints::Checkpoints(comm::Transport& transport, const std::string& work_dir, const std::string& fingerprint,
                         bool resume)
    : transport_(transport), fingerprint_(fingerprint), resume_(resume && !work_dir.empty()) {
  if (work_dir.empty()) return;
  dir_ = (fs::path(work_dir) / fingerprint.substr(0, 16)).string();
  std::error_code ec;
  fs::create_directories(dir_, ec);
  std::string error;
  if (ec) error = ec.message();
  else if (!fs::is_directory(dir_, ec)) error = "not a directory";
  error = comm::first_error(transport_, error);
  if (!error.empty()) throw FatalError("cannot create work directory " + dir_ + ": " + error);
  lock_job_directory();
  check_checkpoint_nodes(transport_, dir_, resume_);
}

void Checkpoints::lock_job_directory() {
  // The same job started twice with one --work-dir would share these files: the first to finish
  // removes them under the other. Rank 0 holds the directory's lock until the job ends; its name
  // is rank 0's, so remove_all takes it away with the rest (other rank counts are other jobs, in
  // other directories).
  std::string error;
  if (transport_.rank() == 0) {
    const std::string path = (fs::path(dir_) / ("rank-0-of-" + std::to_string(transport_.size()) + ".lock")).string();
    LockAttempt attempt = take_owner_lock(path);
    if (!attempt.error.empty()) {
      error = "cannot lock work directory " + dir_ + ": " + attempt.error;
    } else if (attempt.busy) {
      error = "--work-dir " + dir_ + " is in use by another crd job with the same inputs and options (" +
              attempt.owner.describe() + "): wait for it to end, or give this job another --work-dir";
    } else {
      lock_ = std::move(attempt.lock);
    }
  }
  error = comm::broadcast_from_rank0<std::string>(transport_, error);
  if (!error.empty()) throw FatalError(error);
}

CheckpointOwner Checkpoints::owner() const {
  return {fingerprint_, static_cast<std::uint32_t>(transport_.rank()), static_cast<std::uint32_t>(transport_.size())};
}

std::string Checkpoints::path_of(const std::string& phase) const {
  std::ostringstream name;
  name << "rank-" << transport_.rank() << "-of-" << transport_.size() << "." << phase << ".ckpt";
  return (fs::path(dir_) / name.str()).string();
}

bool Checkpoints::load(const std::string& phase, const std::function<void(BinaryFileReader&)>& read) {
  if (!resume_) return false;
  const std::string path = path_of(phase);
  std::error_code ec;
  if (!fs::exists(path, ec)) return false;  // the job stopped before this phase: nothing to say
  const std::string why = read_checkpoint_file(path, phase, owner(), read);
  if (why.empty()) return true;
  // Damage is worth a line: the job is redoing work, and the disk may be failing.
  std::fprintf(stderr, "crd: warning: rank %d: checkpoint %s %s; redoing phase %s\n", transport_.rank(),
               path.c_str(), why.c_str(), phase.c_str());
  std::fflush(stderr);
  return false;
}

bool Checkpoints::load_agreed(const std::string& phase, const std::function<void(BinaryFileReader&)>& read) {
  if (!enabled()) return false;
  return comm::all_ok(transport_, load(phase, read));  // load is false unless resuming
}

void Checkpoints::save(const std::string& phase, const std::function<void(BinaryFileWriter&)>& write) {
  if (!enabled() || !save_error_.empty()) return;
  const std::string path = path_of(phase);
  const std::string temp = path + ".partial";
  std::error_code ec;
  try {
    write_checkpoint_file(temp, phase, owner(), write);
    fs::rename(temp, path, ec);
    if (ec) save_error_ = "cannot save checkpoint " + path + ": " + ec.message();
  } catch (const FatalError& e) {
    save_error_ = std::string("cannot save checkpoint: ") + e.what();
  }
  if (!save_error_.empty()) fs::remove(temp, ec);  // a full disk keeps no half-written file
}

void Checkpoints::agree_saved() {
  if (!enabled()) return;
  const std::string error = comm::first_error(transport_, save_error_);
  if (!error.empty()) throw FatalError(error);
}

void Checkpoints::remove_all() {
  if (!enabled()) return;
  lock_.release();
  std::error_code ec;
  const std::string prefix = "rank-" + std::to_string(transport_.rank()) + "-of-";
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0) fs::remove(entry.path(), ec);
  }
  fs::remove(dir_, ec);  // succeeds once the last rank's files are gone
}

std::string job_fingerprint(const std::string& command, const std::string& results_config, int nranks,
                            const std::vector<io::InputFile>& files, const std::vector<std::string>& side_files) {
  std::ostringstream text;
  text << command << '\n' << nranks << '\n';
  text << results_config;
  const auto identify = [&](const std::string& path, std::uint64_t size) {
    std::error_code ec;
    const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
    text << path << '\t' << size << '\t' << mtime << '\n';
  };
  for (const auto& f : files) {
    text << f.url << '\t';
    identify(f.path, f.size);
  }
  for (const auto& path : side_files) {
    std::error_code ec;
    const std::uint64_t size = fs::file_size(path, ec);
    text << "side\t";
    identify(path, ec ? 0 : size);
  }
  return to_hex(sha1(text.str()));
}

void fault_point(const char* point, int rank) {
  // Read once: the scan calls this after every file, and getenv walks the whole environment.
  static const char* const spec = std::getenv("CRD_FAULT");
  if (spec == nullptr) return;
  // RANK:POINT[:throw|:stop]; stop freezes the rank (SIGSTOP) so a test can kill its whole node there.
  std::string s = spec;
  const auto colon = s.find(':');
  if (colon == std::string::npos || std::atoi(s.substr(0, colon).c_str()) != rank) return;
  s = s.substr(colon + 1);
  const bool throws = s.size() > 6 && s.compare(s.size() - 6, 6, ":throw") == 0;
  if (throws) s.resize(s.size() - 6);
  const bool stops = s.size() > 5 && s.compare(s.size() - 5, 5, ":stop") == 0;
  if (stops) s.resize(s.size() - 5);
  if (s != point) return;
  if (stops) {
    std::raise(SIGSTOP);
    return;
  }
  if (throws) throw std::runtime_error(std::string("injected fault at ") + point);
  std::raise(SIGKILL);
}

}  // namespace crd::pipeline
