// The -o path, checked before a job does any work: crd writes its result under a temporary name
// and renames it over the output at the end, so an output that names one of the job's own inputs
// (or a device, a FIFO, a symbolic link, a directory) would be replaced with exit status 0. These
// checks refuse it; every command that writes a file (the MPI commands' results, crd report) goes
// through output_problem, and the rename itself through replace_problem (crd/base/file_kind.hpp).
#pragma once

#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/io/inputs.hpp"

namespace crd::pipeline {

// What is wrong with `output` as a place to write a result, "" if nothing: an empty path; a path
// ending in '/'; one that exists and is not a regular file (a directory, FIFO, device, socket, or
// a symbolic link of any kind: crd never replaces a link, nor writes through one); a parent
// directory that does not exist, is not a directory, or cannot be written.
std::string output_path_problem(const std::string& output);

// The first of `paths` that is the same file as `output` (same device and inode, so a hard link
// or another spelling of the path is caught), "" if none or if `output` does not exist yet.
std::string same_file_as_output(const std::string& output, const std::vector<std::string>& paths);

// True if `path` is `dir` or lies under it (compared by device and inode, so other spellings and
// links to `dir` are caught); the deepest existing part of `path` is looked at. False if `dir`
// does not exist.
bool is_at_or_under(const std::string& path, const std::string& dir);

// The whole non-collective check, one line or "": output_path_problem; `output` one of `named`
// (the inputs as given, with an @LIST's list file, --config, --stop-chunks, --labels); `output`
// inside `work_dir` (where the checkpoints live); `work_dir` inside a named input directory (its
// checkpoints would be read as input).
std::string output_problem(const std::string& output, const std::vector<std::string>& named,
                           const std::string& work_dir = {});

// Collective, before any work: rank 0 checks output_problem; every rank raises the same
// UsageError if it finds one.
void check_output_before_run(comm::Transport& transport, const std::string& output,
                             const std::vector<std::string>& named, const std::string& work_dir = {});

// `expand` with check_named set to refuse, while the inputs are listed, what only the listing
// finds: an @LIST nested in another list that is `output`, a listed directory holding `work_dir`.
io::ExpandOptions guarded_expansion(const io::ExpandOptions& expand, const std::string& output,
                                    const std::string& work_dir);

// Collective, once the inputs are listed and before they are read: the same for every file found
// (archives and documents inside input directories, files named in @LIST files). Each rank looks
// at its own `files` (scan::InputShare: together, every file of the job); every rank raises the
// lowest rank's UsageError.
void check_output_is_not_input(comm::Transport& transport, const std::string& output,
                               const std::vector<io::InputFile>& files);

}  // namespace crd::pipeline
