// Owner locks (owner_lock.hpp): flock on the lock file, and "host pid" written inside it.
#include "crd/base/owner_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <utility>

namespace crd {
namespace {

// Whether `pid` is a live process here (EPERM: alive, someone else's).
bool alive_here(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

LockOwner read_owner(int fd) {
  char buffer[512];
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  LockOwner owner;
  if (n <= 0) return owner;
  std::istringstream in(std::string(buffer, static_cast<std::size_t>(n)));
  if (!(in >> owner.host >> owner.pid)) return {};
  return owner;
}

// Where flock is refused (some cluster file systems, NFS mounted without a lock manager), the
// record alone decides: only a process on the owner's own host can see whether that pid lives.
bool record_names_live_process(const LockOwner& owner) {
  return owner.pid > 0 && owner.host == this_host() && owner.pid != static_cast<long>(::getpid()) &&
         alive_here(owner.pid);
}

bool lock_refused(int error) { return error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS || error == EINVAL; }

// True if `fd` is still the file named `path`: a lock file removed (release) between our open()
// and our flock() is a lock on nothing.
bool still_named(int fd, const std::string& path) {
  struct stat held {};
  struct stat named {};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

}  // namespace

std::string LockOwner::describe() const {
  if (pid <= 0) return "host and pid not recorded yet";
  return "host " + host + ", pid " + std::to_string(pid);
}

std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown-host";
  return name;
}

OwnerLock::~OwnerLock() { release(); }

OwnerLock::OwnerLock(OwnerLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

OwnerLock& OwnerLock::operator=(OwnerLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

void OwnerLock::release() noexcept {
  if (fd_ < 0) return;
  // Removed while still held: whoever opens the name next makes a new file and cannot mistake
  // this one (still_named) for it.
  ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

LockAttempt take_owner_lock(const std::string& path) {
  LockAttempt attempt;
  // A few tries: each retry means the owner just released the file we had opened.
  for (int tries = 0; tries < 100; ++tries) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      attempt.error = std::strerror(errno);
      return attempt;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const LockOwner owner = read_owner(fd);
      if (!lock_refused(error) || record_names_live_process(owner)) {
        ::close(fd);
        attempt.busy = true;
        attempt.owner = owner;
        return attempt;
      }
    }
    if (!still_named(fd, path)) {
      ::close(fd);
      continue;
    }
    // The record is for people and for hosts without locks; a full disk that cannot take it
    // still leaves the lock itself working.
    const std::string record = this_host() + " " + std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, record.data(), record.size(), 0);
    attempt.lock.fd_ = fd;
    attempt.lock.path_ = path;
    return attempt;
  }
  attempt.error = "its owners keep replacing it";
  return attempt;
}

bool owner_is_gone(const std::string& path, bool named_only) {
  // Read-write: NFS carries an exclusive flock as a write lock, which needs a file open for writing.
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0 && errno != ENOENT) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;
  bool gone = false;
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
    gone = !named_only || read_owner(fd).pid > 0;
  } else if (lock_refused(errno)) {
    const LockOwner owner = read_owner(fd);
    gone = owner.pid > 0 && owner.host == this_host() && !alive_here(owner.pid);
  }
  ::close(fd);  // lets go of the lock taken to look
  return gone;
}

}  // namespace crd
