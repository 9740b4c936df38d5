// The abort-time cleanup of a result file's temporary and its lock file.
#include "crd/comm/abort_cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cstring>

namespace crd::comm {
namespace {

// Fixed storage: a signal handler must not touch std::string.
std::array<char, 4096> g_path{};
std::array<char, 4096> g_second{};
volatile sig_atomic_t g_armed = 0;

void unlink_armed() {
  if (g_armed == 0) return;
  ::unlink(g_path.data());
  if (g_second[0] != '\0') ::unlink(g_second.data());
}

void on_signal(int sig) {
  unlink_armed();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void set_abort_cleanup(const std::string& path, const std::string& second) {
  g_armed = 0;
  if (path.empty() || path.size() >= g_path.size() || second.size() >= g_second.size()) return;
  std::memcpy(g_path.data(), path.c_str(), path.size() + 1);
  std::memcpy(g_second.data(), second.c_str(), second.size() + 1);
  g_armed = 1;
  static const bool installed = [] {
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
      struct sigaction action {};
      action.sa_handler = on_signal;
      sigemptyset(&action.sa_mask);
      ::sigaction(sig, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

void run_abort_cleanup() noexcept {
  unlink_armed();
  g_armed = 0;
}

}  // namespace crd::comm
