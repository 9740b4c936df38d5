// sort_across_ranks (sample sort): local sort, weighted regular samples shared by allgatherv,
// identical splitters on every rank, partition by splitter, exchange(), local sort.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/byte_codec.hpp"
#include "crd/shuffle/exchange.hpp"

namespace crd::shuffle {

namespace detail {

// Samples per rank: enough for good balance (error ~ 1/oversampling of a slice), small enough
// that every rank can hold all of them.
inline std::size_t samples_per_rank(int nranks) { return static_cast<std::size_t>(std::min(nranks, 1024)) * 16; }

struct WeightedSample {
  std::size_t index;  // into the decoded sample vector
  double weight;      // records of its rank it stands for
};

}  // namespace detail

template <class T, class Less, class Encode, class Decode>
std::vector<T> sort_across_ranks(comm::Transport& transport, std::vector<T> local, Less less, Encode encode,
                                 Decode decode, std::size_t round_bytes) {
  std::sort(local.begin(), local.end(), less);
  const int nranks = transport.size();
  if (nranks == 1) return local;

  // Regular samples of the sorted slice, preceded by the slice length so each sample can carry
  // the weight of the records it represents (ranks may hold very different amounts).
  ByteWriter writer;
  const std::size_t want = std::min(local.size(), detail::samples_per_rank(nranks));
  writer.pod(static_cast<std::uint64_t>(local.size()));
  for (std::size_t i = 0; i < want; ++i) encode(local[(2 * i + 1) * local.size() / (2 * want)], writer);
  std::vector<std::byte> gathered;
  std::vector<std::uint64_t> counts;
  transport.allgatherv(writer.bytes(), gathered, counts);

  std::vector<T> samples;
  std::vector<detail::WeightedSample> order;
  double total_weight = 0;
  std::size_t at = 0;
  for (const auto count : counts) {
    ByteReader reader(std::span<const std::byte>(gathered).subspan(at, count));
    at += count;
    const auto n = reader.pod<std::uint64_t>();
    const std::size_t first = samples.size();
    while (!reader.done()) samples.push_back(decode(reader));
    const std::size_t taken = samples.size() - first;
    for (std::size_t i = first; i < samples.size(); ++i)
      order.push_back({i, static_cast<double>(n) / static_cast<double>(taken)});
    if (taken > 0) total_weight += static_cast<double>(n);
  }
  // Same input, same deterministic sort on every rank: identical splitters everywhere.
  std::sort(order.begin(), order.end(),
            [&](const auto& a, const auto& b) { return less(samples[a.index], samples[b.index]); });
  std::vector<T> splitters;
  double seen = 0;
  std::size_t next = 0;
  for (int k = 1; k < nranks; ++k) {
    const double target = total_weight * k / nranks;
    while (next < order.size() && seen + order[next].weight <= target) seen += order[next++].weight;
    if (order.empty()) break;
    splitters.push_back(samples[order[std::min(next, order.size() - 1)].index]);
  }

  // Records >= splitter k-1 and < splitter k go to rank k: contiguous runs of the sorted slice.
  // This rank's own run stays as it is, without a trip through the codec.
  Buckets buckets(nranks);
  std::vector<T> out;
  auto it = local.begin();
  for (int dest = 0; dest < nranks; ++dest) {
    auto end = dest + 1 < nranks && static_cast<std::size_t>(dest) < splitters.size()
                   ? std::lower_bound(it, local.end(), splitters[static_cast<std::size_t>(dest)], less)
                   : local.end();
    if (dest == transport.rank()) {
      out.assign(std::make_move_iterator(it), std::make_move_iterator(end));
      it = end;
    }
    for (; it != end; ++it) {
      writer.clear();
      encode(*it, writer);
      buckets.add(dest, writer.bytes());
    }
  }
  std::vector<T>().swap(local);

  exchange(transport, buckets, round_bytes, [&](int, std::span<const std::byte> record) {
    ByteReader reader(record);
    out.push_back(decode(reader));
  });
  std::sort(out.begin(), out.end(), less);
  return out;
}

}  // namespace crd::shuffle
