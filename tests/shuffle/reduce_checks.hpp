// Invariants of reduce_by_key / group_by_key, checked on any Transport: no record lost or
// duplicated, every key combined exactly once and on its owner, contributors exact, and the
// results equal a single-process reference for any rank count, input order and round budget.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "crd/comm/collectives.hpp"
#include "crd/comm/transport.hpp"
#include "crd/shuffle/reduce_by_key.hpp"
#include "shuffle_fixtures.hpp"

namespace crd::shuffle::testing {

// A record of every field kind the codec supports: a digest, integers, a string, a POD vector.
struct Tally {
  Digest key;
  std::uint64_t count = 0;
  std::string smallest_text;           // min over the key's records
  std::vector<std::uint64_t> serials;  // every record's identity: loss or duplication shows
  static constexpr auto fields() {
    return std::tuple(&Tally::key, &Tally::count, &Tally::smallest_text, &Tally::serials);
  }
  bool operator==(const Tally&) const = default;
};

inline const Digest& key_of_tally(const Tally& t) { return t.key; }

inline void combine_tally(Tally& into, Tally& from) {
  into.count += from.count;
  into.smallest_text = std::min(into.smallest_text, from.smallest_text);
  into.serials.insert(into.serials.end(), from.serials.begin(), from.serials.end());
}

inline Tally tally_of(const Item& it, std::size_t pad) {
  return {it.key, 1, it.text + std::string(pad, 'x'), {it.serial}};
}

// This rank's records in an order that depends on `permutation` (0: as generated).
inline std::vector<Tally> local_tallies(const comm::Transport& t, std::uint64_t total, std::uint64_t distinct_keys,
                                        bool skew, std::uint64_t permutation, std::size_t pad) {
  std::vector<Tally> out;
  for (const Item& it : local_items(23, total, distinct_keys, t.rank(), t.size(), skew))
    out.push_back(tally_of(it, pad));
  if (permutation != 0)
    std::shuffle(out.begin(), out.end(), std::mt19937_64(permutation * 31 + static_cast<unsigned>(t.rank())));
  return out;
}

// Every rank's records, concatenated in rank order (collective).
template <class Record>
std::vector<Record> gather_all(comm::Transport& t, const std::vector<Record>& mine) {
  ByteWriter w;
  for (const Record& r : mine) write_fields(w, r);
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  t.allgatherv(w.bytes(), all, counts);
  ByteReader r(all);
  std::vector<Record> out;
  while (!r.done()) out.push_back(read_fields<Record>(r));
  return out;
}

// The single-process answer: one row per key, serials ascending.
inline std::vector<Tally> reference_tallies(std::uint64_t total, std::uint64_t distinct_keys, std::size_t pad) {
  std::map<Digest, Tally> by_key;
  for (std::uint64_t i = 0; i < total; ++i) {
    Tally t = tally_of(make_item(23, i, distinct_keys), pad);
    auto [it, added] = by_key.try_emplace(t.key, t);
    if (!added) combine_tally(it->second, t);
  }
  std::vector<Tally> out;
  for (auto& [k, t] : by_key) {
    std::sort(t.serials.begin(), t.serials.end());
    out.push_back(std::move(t));
  }
  return out;
}

inline void check_reduce(comm::Transport& t, std::uint64_t total, std::uint64_t distinct_keys, bool skew,
                         std::size_t round_bytes, std::uint64_t permutation, std::size_t pad = 0) {
  const int me = t.rank(), n = t.size();
  const auto mine = local_tallies(t, total, distinct_keys, skew, permutation, pad);
  Contributors contributors;
  ExchangeStats stats;
  auto rows =
      reduce_by_key(t, mine, key_of_tally, HashPrefixOwner{}, combine_tally, {round_bytes, &stats}, &contributors);

  // Owned, ascending, each key once; contributors are exactly the ranks that held the key.
  ASSERT_EQ(contributors.offsets.size(), rows.size() + 1);
  std::map<Digest, std::set<std::uint32_t>> holders;  // key -> the ranks whose input has it
  for (int r = 0; r < n; ++r)
    for (const Item& it : local_items(23, total, distinct_keys, r, n, skew))
      holders[it.key].insert(static_cast<std::uint32_t>(r));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(owner_of(rows[i].key, n), me);
    if (i > 0) {
      EXPECT_LT(rows[i - 1].key, rows[i].key);
    }
    const std::set<std::uint32_t>& expected = holders[rows[i].key];
    const std::vector<std::uint32_t> got(
        contributors.ranks.begin() + static_cast<std::ptrdiff_t>(contributors.offsets[i]),
        contributors.ranks.begin() + static_cast<std::ptrdiff_t>(contributors.offsets[i + 1]));
    EXPECT_EQ(got, std::vector<std::uint32_t>(expected.begin(), expected.end()));
  }
  for (Tally& r : rows) std::sort(r.serials.begin(), r.serials.end());
  // Owners are contiguous ascending ranges of the hash: the rank-order concatenation is sorted.
  EXPECT_EQ(gather_all(t, rows), reference_tallies(total, distinct_keys, pad));
  // A tiny budget really did split the traffic into many rounds (collectives: every rank calls).
  const std::uint64_t rounds = comm::max(t, stats.rounds), records = comm::sum(t, total);
  if (round_bytes < 64 && records > 0 && n > 1) {
    EXPECT_GT(rounds, 10u);
  }
}

// A custom owner and string keys: everything to the last rank, keyed by the item's text.
struct TextCount {
  std::string text;
  std::uint64_t count = 0;
  static constexpr auto fields() { return std::tuple(&TextCount::text, &TextCount::count); }
  bool operator==(const TextCount&) const = default;
};

inline void check_custom_owner(comm::Transport& t, std::uint64_t total, std::size_t round_bytes) {
  std::vector<TextCount> mine;
  for (const Item& it : local_items(5, total, 0, t.rank(), t.size(), false)) mine.push_back({it.text, 1});
  const int last = t.size() - 1;
  const auto rows = reduce_by_key(
      t, mine, [](const TextCount& r) -> const std::string& { return r.text; },
      [last](const std::string&, int) { return last; },
      [](TextCount& into, const TextCount& from) { into.count += from.count; }, {round_bytes});
  if (t.rank() != last) {
    EXPECT_TRUE(rows.empty());
  }
  std::map<std::string, std::uint64_t> expected;
  for (std::uint64_t i = 0; i < total; ++i) ++expected[make_item(5, i, 0).text];
  std::vector<TextCount> want;
  for (const auto& [text, count] : expected) want.push_back({text, count});
  EXPECT_EQ(gather_all(t, rows), want);
}

// group_by_key: each key once, its values from every rank, sorted, duplicates kept.
struct Group {
  Digest key;
  std::vector<std::uint64_t> serials;
  static constexpr auto fields() { return std::tuple(&Group::key, &Group::serials); }
  bool operator==(const Group&) const = default;
};

inline void check_group(comm::Transport& t, std::uint64_t total, std::uint64_t distinct_keys, std::size_t round_bytes,
                        std::uint64_t permutation) {
  std::vector<Group> mine;
  for (const Tally& r : local_tallies(t, total, distinct_keys, false, permutation, 0)) {
    mine.push_back({r.key, {r.serials[0] % 7, r.serials[0]}});  // % 7 repeats values within a key
  }
  const auto rows = group_by_key(t, mine, [](const Group& g) -> const Digest& { return g.key; }, HashPrefixOwner{},
                                 &Group::serials, {round_bytes});
  std::map<Digest, std::vector<std::uint64_t>> expected;
  for (std::uint64_t i = 0; i < total; ++i) {
    auto& v = expected[make_item(23, i, distinct_keys).key];
    v.push_back(i % 7);
    v.push_back(i);
  }
  std::vector<Group> want;
  for (auto& [key, v] : expected) {
    std::sort(v.begin(), v.end());
    want.push_back({key, v});
  }
  EXPECT_EQ(gather_all(t, rows), want);
}

}  // namespace crd::shuffle::testing
