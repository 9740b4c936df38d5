// assign_shards: greedy largest-first balancing of input files' scan weights over ranks, deterministic.
#include <algorithm>
#include <numeric>
#include <queue>
#include <stdexcept>

#include "crd/base/saturating.hpp"
#include "crd/io/inputs.hpp"

namespace crd::io {

std::vector<std::vector<std::size_t>> assign_by_size(std::span<const std::uint64_t> sizes, int nranks) {
  if (nranks < 1) throw std::invalid_argument("assign_shards: nranks must be at least 1");
  if (nranks == 1) {  // everything, in order: no sort by size (a few ms on 55k files)
    std::vector<std::vector<std::size_t>> all(1, std::vector<std::size_t>(sizes.size()));
    std::iota(all[0].begin(), all[0].end(), std::size_t{0});
    return all;
  }
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  struct Load {
    std::uint64_t bytes;
    int rank;
    bool operator>(const Load& o) const { return bytes != o.bytes ? bytes > o.bytes : rank > o.rank; }
  };
  std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
  for (int r = 0; r < nranks; ++r) least.push(Load{0, r});
  std::vector<std::vector<std::size_t>> shards(static_cast<std::size_t>(nranks));
  for (std::size_t i : order) {
    Load l = least.top();
    least.pop();
    shards[static_cast<std::size_t>(l.rank)].push_back(i);
    l.bytes = saturating_add(l.bytes, saturating_add(sizes[i], 1));  // +1: empty files spread too
    least.push(l);
  }
  for (auto& s : shards) std::sort(s.begin(), s.end());
  return shards;
}

// kGzipScanWeight: discover's CPU time per byte of a .warc.gz over its time per byte of the same
// WARC uncompressed, 9.2 / 1.5 ns at 256M and 9.1 / 1.5 ns at 1G (perf/RESULTS.md section 1, the
// synthetic crawl: 3.8 WARC bytes per gzip byte). Balanced by bytes on disk, a rank holding the
// gzip files of a job that mixes them with plain WARC or pages had up to 6 times the work of the
// others (docs/discover-speed.md, "Two ranks").
std::uint64_t scan_weight(const InputFile& file) {
  return gzip_named(file) ? saturating_mul(file.size, kGzipScanWeight) : file.size;
}

std::vector<std::vector<std::size_t>> assign_shards(const std::vector<InputFile>& files, int nranks) {
  std::vector<std::uint64_t> weights;
  weights.reserve(files.size());
  for (const InputFile& f : files) weights.push_back(scan_weight(f));
  return assign_by_size(weights, nranks);
}

std::uint64_t total_bytes(const std::vector<InputFile>& files) {
  std::uint64_t n = 0;
  for (const InputFile& f : files) n += f.size;
  return n;
}

}  // namespace crd::io
