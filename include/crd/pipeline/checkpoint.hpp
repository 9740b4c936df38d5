// Checkpoints of completed phases under --work-dir, so a killed job restarted with --resume
// continues from the last phase every rank completed and writes the same result.
//
// Each rank keeps its own files: WORK_DIR/<fingerprint>/rank-R-of-N.<phase>.ckpt, written to a
// temporary name, fsynced and renamed, so a file that exists is complete; each ends with a CRC-32
// (checkpoint_file.hpp), and a damaged, truncated or other-format one is redone with a warning
// instead of being used. Saving is agreed: a rank that cannot write its checkpoint (full or
// unwritable work directory) fails the job on every rank, with one message. The fingerprint hashes
// the command, the options that affect results, the rank count and every input file's path, size
// and modification time (and those of --stop-chunks and --labels); each file carries it, with its
// rank, so a checkpoint of a different job, or of another rank of this one (a file renamed or
// copied into the directory), is never used: it is redone with a warning, as a damaged one is. A phase is skipped only
// if every rank holds its checkpoint (agreed with an allreduce); the scan phase involves no other rank, so each rank
// that has its scan checkpoint skips its own scan. Rank 0 locks the directory for the job's lifetime (owner_lock.hpp):
// the same job started again while it runs is refused at once, with one line naming the running job's host and pid.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "crd/base/binary_file.hpp"
#include "crd/base/owner_lock.hpp"
#include "crd/comm/transport.hpp"
#include "crd/io/inputs.hpp"

namespace crd::pipeline {

struct CheckpointOwner;  // checkpoint_file.hpp

class Checkpoints {
 public:
  // Disabled when work_dir is empty. Creates the directory (FatalError on every rank if it cannot).
  Checkpoints(comm::Transport& transport, const std::string& work_dir, const std::string& fingerprint, bool resume);

  bool enabled() const { return !dir_.empty(); }
  bool resuming() const { return resume_; }

  // Local. True if this rank resumed `phase` from its checkpoint (read has been called). A file
  // that exists but fails its checks is reported on stderr (one line naming it) and not used.
  bool load(const std::string& phase, const std::function<void(BinaryFileReader&)>& read);
  // Collective, for phases that talk to other ranks: true only if every rank loaded its checkpoint
  // of `phase`; otherwise every rank redoes the phase (discard what read() produced).
  bool load_agreed(const std::string& phase, const std::function<void(BinaryFileReader&)>& read);
  // Local. Saves this rank's state after `phase`; a failure is kept for agree_saved (and later
  // saves are skipped), so ranks that save and ranks that resumed stay in step.
  void save(const std::string& phase, const std::function<void(BinaryFileWriter&)>& write);
  // Collective. Throws FatalError (every rank, the first failing rank's message) if any rank
  // could not save a checkpoint.
  void agree_saved();
  // Local. Removes this rank's checkpoints (after the result was committed).
  void remove_all();

 private:
  std::string path_of(const std::string& phase) const;
  CheckpointOwner owner() const;
  // Collective: rank 0 takes the job directory's lock, or every rank throws FatalError naming
  // the live job that holds it.
  void lock_job_directory();

  comm::Transport& transport_;
  std::string fingerprint_;
  std::string dir_;
  bool resume_;
  std::string save_error_;  // the first failed save of this rank
  OwnerLock lock_;          // rank 0: the job directory, for as long as this job runs
};

// The job fingerprint (40 hex digits). results_config: the effective options that change what the
// job computes (RunInfo::results_config); those that change only how it runs (-o, --memory,
// --work-dir…; the CLI's option registry marks them) stay out, so a job resumed with another of
// them still finds its checkpoints. side_files: the other files the job reads whose content
// changes its result (--stop-chunks, --labels), by path, size and modification time as inputs are.
std::string job_fingerprint(const std::string& command, const std::string& results_config, int nranks,
                            const std::vector<io::InputFile>& files, const std::vector<std::string>& side_files = {});

// Testing hook: if the environment names this rank and point (CRD_FAULT="RANK:POINT"), the process
// kills itself with SIGKILL there, as a crashed node would; with "RANK:POINT:throw" it throws, as a
// bug on one rank would. Points: scan (after each input file), after_scan, after_discover,
// after_detect.
void fault_point(const char* point, int rank);

}  // namespace crd::pipeline
