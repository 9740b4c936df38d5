// Files to delete if this process is aborted: the result file's temporary (and its lock file), so
// an aborted job (MPI_Abort from any rank, or mpirun's SIGTERM after another rank died) leaves no
// half-written result behind. One set per process; the signal handler only calls unlink(), which
// is async-signal-safe.
#pragma once

#include <string>

namespace crd::comm {

// Remembers `path` (and `second`, unless empty) and installs SIGTERM/SIGINT/SIGHUP handlers that
// unlink them, then die by the same signal. An empty path forgets them.
void set_abort_cleanup(const std::string& path, const std::string& second = {});
// Unlinks the remembered paths now (abort_job calls this before MPI_Abort).
void run_abort_cleanup() noexcept;

}  // namespace crd::comm
