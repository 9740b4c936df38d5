// The abort-time cleanup of a result file's temporary.
#include "crd/comm/abort_cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cstring>

namespace crd::comm {
namespace {

// Fixed storage: a signal handler must not touch std::string.
std::array<char, 4096> g_path{};
volatile sig_atomic_t g_armed = 0;

void on_signal(int sig) {
  if (g_armed != 0) ::unlink(g_path.data());
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void set_abort_cleanup(const std::string& path) {
  g_armed = 0;
  if (path.empty() || path.size() >= g_path.size()) return;
  std::memcpy(g_path.data(), path.c_str(), path.size() + 1);
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
  if (g_armed != 0) ::unlink(g_path.data());
  g_armed = 0;
}

}  // namespace crd::comm
