// The post-phase of reduce_by_key (Thrill's ReducePostPhase): on the owner, the per-source runs
// that arrived, each already in key order, are merged into one key-ordered vector, folding equal
// keys. Local work: no ranks, no transport.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "crd/base/prefault.hpp"
#include "crd/shuffle/key_order.hpp"

namespace crd::shuffle {

// For each result row, the ranks whose records were combined into it (ascending): rows[i]'s
// ranks are ranks[offsets[i] .. offsets[i + 1]). Lets an owner answer exactly those ranks.
struct Contributors {
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> ranks;
};

namespace detail {

// Merges the per-source runs (each ascending by key, one record per key) into one ascending
// vector, folding equal keys in source order, so each row's contributors come out ascending: a
// heap of the runs' heads (two runs: a plain merge), ties to the lower source. Each run is freed
// as soon as it is used up.
// (Decoding into one array, std::inplace_merge and a separate fold cost a zeroed array of every
// record, the merge's temporary buffer and two more passes: a third of a 2-rank count exchange.)
template <class Record, class KeyOf, class Combine>
std::vector<Record> merge_runs(std::vector<std::vector<Record>>& runs, KeyOf& key_of, Combine& combine,
                               Contributors* contributors) {
  std::size_t total = 0;
  for (const auto& run : runs) total += run.size();
  std::vector<Record> out;
  reserve_writable(out, total);
  if (contributors != nullptr) {
    contributors->offsets.assign(1, 0);
    contributors->ranks.clear();
    reserve_writable(contributors->offsets, total + 1);
    reserve_writable(contributors->ranks, total);
  }
  std::vector<std::size_t> at(runs.size(), 0);
  // Appends (or folds into the last row) run s's next record; false once s is used up.
  const auto take = [&](std::uint32_t s) {
    Record& next = runs[s][at[s]];
    if (!out.empty() && key_equal(key_of(out.back()), key_of(next))) {
      combine(out.back(), next);
    } else {
      if (contributors != nullptr && !out.empty()) contributors->offsets.push_back(contributors->ranks.size());
      out.push_back(std::move(next));
    }
    if (contributors != nullptr) contributors->ranks.push_back(s);
    if (++at[s] < runs[s].size()) return true;
    std::vector<Record>().swap(runs[s]);
    return false;
  };
  std::vector<std::uint32_t> heads;
  for (std::uint32_t s = 0; s < runs.size(); ++s)
    if (!runs[s].empty()) heads.push_back(s);
  // More than two runs: a heap of their heads. std::push_heap keeps the greatest on top: "a after
  // b" makes that the smallest (key, source).
  const auto after = [&](std::uint32_t a, std::uint32_t b) {
    const auto& ka = key_of(runs[a][at[a]]);
    const auto& kb = key_of(runs[b][at[b]]);
    if (key_less(kb, ka)) return true;
    if (key_less(ka, kb)) return false;
    return b < a;
  };
  std::make_heap(heads.begin(), heads.end(), after);
  while (heads.size() > 2) {
    std::pop_heap(heads.begin(), heads.end(), after);
    if (take(heads.back())) {
      std::push_heap(heads.begin(), heads.end(), after);
    } else {
      heads.pop_back();
    }
  }
  // Two runs (every exchange of a 2-rank job): compare the heads directly, ties to the lower source.
  if (heads.size() == 2) {
    const std::uint32_t a = std::min(heads[0], heads[1]), b = std::max(heads[0], heads[1]);
    for (;;) {
      const bool from_b = key_less(key_of(runs[b][at[b]]), key_of(runs[a][at[a]]));
      if (!take(from_b ? b : a)) {
        heads.assign(1, from_b ? a : b);
        break;
      }
    }
  }
  if (heads.size() == 1)
    while (take(heads[0])) {
    }
  if (contributors != nullptr && !out.empty()) contributors->offsets.push_back(contributors->ranks.size());
  return out;
}

// Owners learn first how many records each rank sends (incoming[s] from rank s), so each other
// source's run (in its key order) is received into a vector sized once; this rank's own run is
// left to the caller.
template <class Record>
std::vector<std::vector<Record>> announced_runs(const std::vector<std::uint64_t>& incoming, std::size_t me) {
  std::vector<std::vector<Record>> runs(incoming.size());
  for (std::size_t s = 0; s < runs.size(); ++s)
    if (s != me) reserve_writable(runs[s], static_cast<std::size_t>(incoming[s]));
  return runs;
}

// Throws unless `count` more records fit in what rank s announced.
template <class Record>
void check_room(const std::vector<Record>& run, std::uint64_t announced, std::size_t count) {
  if (count > announced - run.size()) throw std::runtime_error("reduce_by_key: more records than announced");
}

// Throws unless every run, this rank's own included, holds exactly what its source announced.
template <class Record>
void check_all_arrived(const std::vector<std::vector<Record>>& runs, const std::vector<std::uint64_t>& incoming) {
  for (std::size_t s = 0; s < runs.size(); ++s)
    if (runs[s].size() != incoming[s]) throw std::runtime_error("reduce_by_key: fewer records than announced");
}

}  // namespace detail

// The owner-side merge of reduce_by_key for a caller that shuffles in batches: runs, each
// ascending by key with one record per key, merged into one ascending vector with equal keys
// folded by `combine`; each run is freed as soon as it is used up.
template <class Record, class KeyOf, class Combine>
std::vector<Record> merge_sorted_runs(std::vector<std::vector<Record>> runs, KeyOf key_of, Combine combine) {
  return detail::merge_runs(runs, key_of, combine, nullptr);
}

}  // namespace crd::shuffle
