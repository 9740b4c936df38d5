// assign_shards: greedy largest-first balancing of input files over ranks, deterministic.
#include <algorithm>
#include <numeric>
#include <queue>
#include <stdexcept>

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
    l.bytes += sizes[i] + 1;  // +1: empty files spread over ranks instead of piling on one
    least.push(l);
  }
  for (auto& s : shards) std::sort(s.begin(), s.end());
  return shards;
}

std::vector<std::vector<std::size_t>> assign_shards(const std::vector<InputFile>& files, int nranks) {
  std::vector<std::uint64_t> sizes;
  sizes.reserve(files.size());
  for (const InputFile& f : files) sizes.push_back(f.size);
  return assign_by_size(sizes, nranks);
}

std::uint64_t total_bytes(const std::vector<InputFile>& files) {
  std::uint64_t n = 0;
  for (const InputFile& f : files) n += f.size;
  return n;
}

}  // namespace crd::io
