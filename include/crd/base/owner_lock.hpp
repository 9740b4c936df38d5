// Which live job owns a file: an exclusive lock held for as long as the owner runs, beside a
// record of the owner's host and pid. The kernel drops the lock when the owner dies, however it
// dies (SIGKILL included), so a free lock means an abandoned file. On a file system shared by
// several hosts that does not carry locks between them (or refuses them), the record still tells
// a process on the owner's own host whether that pid lives; elsewhere such a file is kept.
#pragma once

#include <string>

namespace crd {

// The host and pid a lock file names; pid 0 when it names none (not yet written, or unreadable).
struct LockOwner {
  std::string host;
  long pid = 0;
  std::string describe() const;  // "host H, pid P"
};

// This machine's host name, as lock files record it.
std::string this_host();

// A lock this process holds on one file. Move-only; destroying it, as release(), removes the file
// and lets go of the lock: only a process killed outright leaves its lock file behind.
class OwnerLock {
 public:
  OwnerLock() = default;
  ~OwnerLock();
  OwnerLock(OwnerLock&& other) noexcept;
  OwnerLock& operator=(OwnerLock&& other) noexcept;
  OwnerLock(const OwnerLock&) = delete;
  OwnerLock& operator=(const OwnerLock&) = delete;

  bool held() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  // Removes the lock file, then lets go of the lock.
  void release() noexcept;

 private:
  friend struct LockAttempt take_owner_lock(const std::string& path);
  int fd_ = -1;
  std::string path_;
};

// What take_owner_lock found: the lock (held), or the live owner that holds it, or why the lock
// file could not be made.
struct LockAttempt {
  OwnerLock lock;
  bool busy = false;
  LockOwner owner;    // when busy: who holds it (pid 0 if it did not say)
  std::string error;  // the system's reason, when the file cannot be created or opened
};

// Takes `path` (created if absent) for this process and records this host and pid in it. Busy if
// a live process holds it: its lock is taken, or, where the file system refuses locks, its record
// names a live process on this host.
LockAttempt take_owner_lock(const std::string& path);

// True if nobody owns the file `path` any more: it does not exist, or its lock is free (and it
// names an owner, when named_only is set: a lock file whose owner has not yet written its record
// may be in the moment between its creation and its lock), or, where the file system refuses
// locks, it names a dead process on this host. Takes the lock for a moment to find out.
bool owner_is_gone(const std::string& path, bool named_only = false);

}  // namespace crd
