// The listing alone (io::expand_inputs over one directory, as a one-rank job lists its inputs):
// wall, user and system CPU per run. perf/RESULTS.md §4.
//
//   build/perf/bench_listing DIR [REPS]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "crd/io/inputs.hpp"

namespace {
double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_listing DIR [REPS]\n");
    return 2;
  }
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  for (int r = 0; r < reps; ++r) {
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    crd::io::InputLog log;
    const auto files = crd::io::expand_inputs({argv[1]}, {}, log);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    getrusage(RUSAGE_SELF, &after);
    std::printf("%zu files  wall %.3f s  user %.3f s  sys %.3f s\n", files.size(), wall,
                seconds(after.ru_utime) - seconds(before.ru_utime), seconds(after.ru_stime) - seconds(before.ru_stime));
  }
  return 0;
}
