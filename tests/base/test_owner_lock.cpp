// Owner locks: a live owner's lock file is busy for another process (which learns its host and
// pid) and not gone; once the owner dies without releasing it (as SIGKILL leaves it) the file is
// gone and can be taken again; a released lock removes its file. Other processes are forked
// children, since a lock held by this process is this process's own.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "crd/base/owner_lock.hpp"
#include "support/test_paths.hpp"

namespace crd {
namespace {

// Runs `child` in a forked process; its return value is the child's exit status.
template <typename F>
int in_child(F child) {
  const pid_t pid = ::fork();
  if (pid == 0) std::_Exit(child());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

std::string content(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(OwnerLock, LiveOwnerIsBusyAndNamedToOthers) {
  const std::string path = testing::make_temp_dir("owner-lock") + "/job.lock";
  LockAttempt mine = take_owner_lock(path);
  ASSERT_TRUE(mine.error.empty()) << mine.error;
  ASSERT_FALSE(mine.busy);
  ASSERT_TRUE(mine.lock.held());
  EXPECT_EQ(content(path), this_host() + " " + std::to_string(::getpid()) + "\n");
  const long me = ::getpid();
  EXPECT_EQ(in_child([&] {
              const LockAttempt other = take_owner_lock(path);
              if (!other.busy || other.lock.held()) return 1;
              if (other.owner.pid != me || other.owner.host != this_host()) return 2;
              if (other.owner.describe() != "host " + this_host() + ", pid " + std::to_string(me)) return 3;
              return owner_is_gone(path) ? 4 : 0;
            }),
            0);
  mine.lock.release();
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(owner_is_gone(path));  // no file: no owner
}

TEST(OwnerLock, DeadOwnersFileIsGoneAndCanBeTaken) {
  const std::string path = testing::make_temp_dir("owner-lock") + "/job.lock";
  long child_pid = 0;
  // The child takes the lock and exits without releasing it: the kernel lets go, the file stays.
  EXPECT_EQ(in_child([&] {
              LockAttempt a = take_owner_lock(path);
              if (!a.lock.held()) return 1;
              std::_Exit(0);
              return 0;
            }),
            0);
  ASSERT_TRUE(std::filesystem::exists(path));
  {
    std::ifstream in(path);
    std::string host;
    in >> host >> child_pid;
    EXPECT_EQ(host, this_host());
  }
  EXPECT_NE(child_pid, static_cast<long>(::getpid()));
  EXPECT_TRUE(owner_is_gone(path));
  EXPECT_TRUE(owner_is_gone(path, true));
  LockAttempt again = take_owner_lock(path);
  ASSERT_TRUE(again.lock.held());
  EXPECT_EQ(content(path), this_host() + " " + std::to_string(::getpid()) + "\n");
}

TEST(OwnerLock, UnnamedFileIsGoneOnlyWhenNamesAreNotAsked) {
  // A lock file an owner has just created, before its record: its lock is free for a moment.
  const std::string path = testing::make_temp_dir("owner-lock") + "/new.lock";
  std::ofstream(path).close();
  EXPECT_TRUE(owner_is_gone(path));
  EXPECT_FALSE(owner_is_gone(path, true));
}

}  // namespace
}  // namespace crd
