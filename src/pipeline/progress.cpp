// Progress lines for long phases.
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <ctime>

#include "crd/comm/collectives.hpp"

namespace crd::pipeline {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return stamp;
}

Progress::Progress(comm::Transport& transport, std::string phase, std::uint64_t total_bytes,
                   double interval_seconds, std::string items)
    : transport_(transport),
      active_(transport.rank() == 0 && interval_seconds > 0),
      tty_(isatty(STDERR_FILENO) != 0),
      nranks_(transport.size()),
      phase_(std::move(phase)),
      items_(std::move(items)),
      total_bytes_(total_bytes),
      interval_(interval_seconds),
      start_(std::chrono::steady_clock::now()),
      last_(start_),
      last_post_(start_) {}

void Progress::update(std::uint64_t bytes, std::uint64_t documents) {
  bytes_ = bytes;
  documents_ = documents;
  const auto now = std::chrono::steady_clock::now();
  if (interval_ > 0 && std::chrono::duration<double>(now - last_post_).count() >= 0.2) {
    last_post_ = now;
    transport_.progress_post(bytes, documents);
  }
  if (!active_) return;
  const double since = std::chrono::duration<double>(now - last_).count();
  if (since < (tty_ ? 0.5 : interval_)) return;
  last_ = now;
  std::uint64_t job_bytes = 0;
  std::uint64_t job_documents = 0;
  if (transport_.progress_totals(job_bytes, job_documents)) {
    print(job_bytes, job_documents, false, false);
  } else {
    // Extrapolate: rank 0's shard is about 1/nranks of the job.
    print(bytes * static_cast<std::uint64_t>(nranks_), documents * static_cast<std::uint64_t>(nranks_), false, true);
  }
}

void Progress::print(std::uint64_t bytes, std::uint64_t documents, bool final_line, bool estimated) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double mb = static_cast<double>(bytes) / 1e6;
  const double rate = elapsed > 0 ? mb / elapsed : 0;
  const double docs_rate = elapsed > 0 ? static_cast<double>(documents) / elapsed : 0;
  const double frac = total_bytes_ > 0 ? std::min(1.0, static_cast<double>(bytes) / static_cast<double>(total_bytes_)) : 1.0;
  const double eta = (frac > 0 && !final_line) ? elapsed * (1 - frac) / frac : 0;
  const char* estimate = estimated ? "~" : "";
  if (!items_.empty()) {
    print_items(bytes, frac, elapsed, eta, estimate, final_line);
    return;
  }
  if (tty_) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(frac * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(kWidth - filled), '.');
    std::fprintf(stderr, "\rcrd %s [%s] %s%.0f/%.0f MB %s%llu docs %.1f MB/s %.0f docs/s ETA %.0fs ",
                 phase_.c_str(), bar.c_str(), estimate, mb, static_cast<double>(total_bytes_) / 1e6, estimate,
                 static_cast<unsigned long long>(documents), rate, docs_rate, eta);
    if (final_line) std::fputc('\n', stderr);
  } else {
    std::fprintf(stderr, "%s crd %s: %s%.1f%% %s%.0f/%.0f MB, %s%llu docs, %.1f MB/s, %.0f docs/s, ETA %.0f s\n",
                 utc_now().c_str(), phase_.c_str(), estimate, frac * 100, estimate, mb, static_cast<double>(total_bytes_) / 1e6,
                 estimate, static_cast<unsigned long long>(documents), rate, docs_rate, eta);
  }
  std::fflush(stderr);
}

// "12.5% 1000/8000 chunks, 800 chunks/s, ETA 9 s": a phase that counts items of work.
void Progress::print_items(std::uint64_t done, double frac, double elapsed, double eta, const char* estimate,
                           bool final_line) {
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const auto n = static_cast<unsigned long long>(done);
  const auto total = static_cast<unsigned long long>(total_bytes_);
  const char* item = items_.c_str();
  if (tty_) {
    std::fprintf(stderr, "\rcrd %s: %s%.1f%% %s%llu/%llu %s, %.0f %s/s, ETA %.0fs ", phase_.c_str(), estimate,
                 frac * 100, estimate, n, total, item, rate, item, eta);
    if (final_line) std::fputc('\n', stderr);
  } else {
    std::fprintf(stderr, "%s crd %s: %s%.1f%% %s%llu/%llu %s, %.0f %s/s, ETA %.0f s\n", utc_now().c_str(),
                 phase_.c_str(), estimate, frac * 100, estimate, n, total, item, rate, item, eta);
  }
  std::fflush(stderr);
}

void Progress::finish(comm::Transport& transport) {
  if (interval_ > 0) {
    transport.progress_post(bytes_, documents_);
    transport.progress_close();
  }
  std::uint64_t done[2] = {bytes_, documents_};
  comm::sum(transport, done);
  if (active_) print(done[0], done[1], true, false);
}

}  // namespace crd::pipeline
