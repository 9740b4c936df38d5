// bench_stop_list: --stop-chunks at scale. Writes a stop list of N random SHA-1 lines,
// loads it with crd's StopList::load, and reports the load time, the peak resident memory it took
// and the cost of one lookup (half hits, half misses). One list per process, so the peak RSS is the
// list's own: bench_stop_list [N=10000000] [DIR=/tmp]. Numbers in perf/RESULTS.md.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "crd/discover/label_rules.hpp"
#include "crd/hash/digest.hpp"

namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

crd::Digest random_digest(std::mt19937_64& rng) {
  crd::Digest d;
  for (auto& b : d.bytes) b = static_cast<std::uint8_t>(rng());
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const std::string path = std::string(argc > 2 ? argv[2] : "/tmp") + "/crd-bench-stop-list.txt";
  std::mt19937_64 rng(42);
  {
    std::ofstream out(path, std::ios::binary);
    std::string line;
    for (std::size_t i = 0; i < n; ++i) {
      line = crd::to_hex(random_digest(rng));
      line += '\n';
      out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
  }
  const double rss_before = peak_rss_mib();
  const auto t0 = std::chrono::steady_clock::now();
  const crd::discover::StopList list = crd::discover::StopList::load(path);
  const auto t1 = std::chrono::steady_clock::now();
  const double rss_after = peak_rss_mib();
  std::remove(path.c_str());

  // Lookups: the first n/2 digests again (hits) interleaved with new random ones (misses).
  std::mt19937_64 again(42);
  std::vector<crd::Digest> queries;
  const std::size_t q = std::min<std::size_t>(n, 2000000);
  for (std::size_t i = 0; i < q / 2; ++i) queries.push_back(random_digest(again));
  for (std::size_t i = 0; i < q / 2; ++i) queries.push_back(random_digest(rng));
  std::shuffle(queries.begin(), queries.end(), rng);
  std::size_t hits = 0;
  const auto t2 = std::chrono::steady_clock::now();
  for (const auto& d : queries) hits += list.contains(d) ? 1 : 0;
  const auto t3 = std::chrono::steady_clock::now();
  const double load_s = std::chrono::duration<double>(t1 - t0).count();
  const double lookup_ns = std::chrono::duration<double, std::nano>(t3 - t2).count() / static_cast<double>(queries.size());
  std::printf("entries %zu  load %.2f s  peak RSS growth %.0f MiB (%.1f bytes/entry)  lookup %.0f ns  hits %zu/%zu\n",
              list.size(), load_s, rss_after - rss_before, (rss_after - rss_before) * 1048576.0 / static_cast<double>(n),
              lookup_ns, hits, queries.size());
  return hits == q / 2 ? 0 : 1;
}
