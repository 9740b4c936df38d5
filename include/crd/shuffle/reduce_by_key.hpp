// reduce_by_key and group_by_key: the shuffle's one typed operation, after Thrill's ReduceByKey.
// Each rank hands in the records it produced; every key ends up combined exactly once, on the
// rank that owns it, and each rank gets back its owned results sorted by key:
//   1. local pre-combine: sort this rank's records by key and fold equal keys (one record per key
//      per rank travels);
//   2. route: encode each record from its field list (fields.hpp) into the bucket of
//      owner(key, nranks) and send them with exchange()'s bounded all-to-all rounds; records for
//      this rank itself skip the codec;
//   3. owner-side combine: merge the per-source runs (each already sorted) and fold equal keys.
// With a combine that is associative and commutative, the results (and their order) are the same
// for any rank count and any input order. Collective: every rank must call, with the same owner.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/uint128.hpp"
#include "crd/shuffle/byte_codec.hpp"
#include "crd/shuffle/exchange.hpp"
#include "crd/shuffle/fields.hpp"

namespace crd::shuffle {

struct ShuffleConfig {
  std::size_t round_bytes = std::size_t{64} << 20;  // payload per rank per round (≥ one record)
  ExchangeStats* stats = nullptr;                   // if set, this call's traffic is added to it
};

// The default owner: the key's leading 64 bits (a Digest's prefix64()) scaled onto the ranks, so
// owners are contiguous, ascending ranges of the hash space.
struct HashPrefixOwner {
  template <class Key>
  int operator()(const Key& key, int nranks) const {
    return scale_to_rank(key.prefix64(), nranks);
  }
};

// For each result row, the ranks whose records were combined into it (ascending): rows[i]'s
// ranks are ranks[offsets[i] .. offsets[i + 1]). Lets an owner answer exactly those ranks.
struct Contributors {
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> ranks;
};

namespace detail {

template <class Record>
struct Received {
  Record record;
  std::uint32_t source = 0;
};

// Key order: the key's own <, except for a digest (a `bytes` array compared as unsigned bytes),
// whose leading 8 bytes are compared as one big-endian integer first; that orders exactly like
// the bytes and settles nearly every comparison of random hashes in one instruction (sorting
// the count records byte by byte was the larger part of the count exchange).
template <class Key>
concept DigestKey = requires(const Key& k) {
  k.bytes.data();
}
&&(sizeof(Key::bytes) > 8);

template <class Key>
inline bool key_less(const Key& a, const Key& b) {
  if constexpr (DigestKey<Key> && std::endian::native == std::endian::little) {
    std::uint64_t x, y;
    std::memcpy(&x, a.bytes.data(), 8);
    std::memcpy(&y, b.bytes.data(), 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y);
    return std::memcmp(a.bytes.data() + 8, b.bytes.data() + 8, sizeof(Key::bytes) - 8) < 0;
  } else {
    return a < b;
  }
}

// Folds runs of equal keys of a key-sorted vector in place, keeping the first of each run.
template <class T, class KeyOf, class Combine, class OnRun>
void fold_sorted(std::vector<T>& v, KeyOf&& key_of, Combine&& combine, OnRun&& on_run) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i + 1;
    if (out != i) v[out] = std::move(v[i]);
    on_run(v[out], v[out]);
    for (; j < v.size() && key_of(v[j]) == key_of(v[out]); ++j) {
      combine(v[out], v[j]);
      on_run(v[out], v[j]);
    }
    ++out;
    i = j;
  }
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(out), v.end());
}

// One rank owns every key, so the pre-combined records are already the result: routing them to
// itself, merging one run and folding again only copied them (three passes over 1.2M count records
// of a one-rank discover). Same result, contributors and (empty) exchange statistics.
template <class Record, class KeyOf, class Owner>
std::vector<Record> owned_by_one_rank(std::vector<Record> records, KeyOf& key_of, Owner& owner,
                                      Contributors* contributors) {
  for (const Record& r : records)
    if (owner(key_of(r), 1) != 0) throw std::out_of_range("reduce_by_key: owner outside the ranks");
  if (contributors != nullptr) {
    contributors->offsets.resize(records.size() + 1);
    for (std::size_t i = 0; i <= records.size(); ++i) contributors->offsets[i] = i;
    contributors->ranks.assign(records.size(), 0);
  }
  return records;
}

}  // namespace detail

// combine(Record& into, Record& from) folds `from` (which is discarded afterwards) into `into`;
// key_of(const Record&) returns a key with < and ==; owner(key, nranks) returns a rank. Returns
// this rank's owned results, ascending by key; `contributors`, if given, is filled parallel.
template <class Record, class KeyOf, class Owner, class Combine>
std::vector<Record> reduce_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of, Owner owner,
                                  Combine combine, const ShuffleConfig& config, Contributors* contributors = nullptr) {
  const auto by_key = [&](const Record& a, const Record& b) { return detail::key_less(key_of(a), key_of(b)); };
  if (!std::is_sorted(records.begin(), records.end(), by_key)) std::sort(records.begin(), records.end(), by_key);
  detail::fold_sorted(records, key_of, combine, [](const Record&, const Record&) {});

  const int nranks = transport.size();
  if (nranks == 1) return detail::owned_by_one_rank(std::move(records), key_of, owner, contributors);
  const auto n = static_cast<std::size_t>(nranks);
  const auto me = static_cast<std::size_t>(transport.rank());
  std::vector<int> dest(records.size());
  std::vector<std::uint64_t> per_dest(n, 0);
  std::vector<std::size_t> framed(n, 0);
  for (std::size_t i = 0; i < records.size(); ++i) {
    dest[i] = owner(key_of(records[i]), nranks);
    if (dest[i] < 0 || dest[i] >= nranks) throw std::out_of_range("reduce_by_key: owner outside the ranks");
    const auto d = static_cast<std::size_t>(dest[i]);
    ++per_dest[d];
    if (d != me) framed[d] += Buckets::framed_bytes(encoded_size(records[i]));
  }
  // Owners learn first how many records each rank sends, so every record is decoded straight
  // into its final slot: source s's run (in its key order) fills all[first[s] ..). No per-source
  // buffers, and this rank's own records never pass through the codec.
  const std::vector<std::uint64_t> incoming = transport.alltoall(per_dest);
  std::vector<std::size_t> first(n + 1, 0);
  for (std::size_t s = 0; s < n; ++s) first[s + 1] = first[s] + static_cast<std::size_t>(incoming[s]);
  std::vector<detail::Received<Record>> all(first[n]);
  std::vector<std::size_t> filled(first.begin(), first.end() - 1);

  Buckets buckets(nranks);
  for (std::size_t d = 0; d < n; ++d) buckets.reserve(static_cast<int>(d), framed[d]);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto d = static_cast<std::size_t>(dest[i]);
    if (d == me) {
      all[filled[me]++] = {std::move(records[i]), static_cast<std::uint32_t>(me)};
      continue;
    }
    SpanWriter w(buckets.append(dest[i], encoded_size(records[i])));
    write_value(w, records[i]);
  }
  std::vector<Record>().swap(records);
  std::vector<int>().swap(dest);

  const ExchangeStats stats =
      exchange(transport, buckets, config.round_bytes, [&](int source, std::span<const std::byte> bytes) {
        const auto s = static_cast<std::size_t>(source);
        if (filled[s] == first[s + 1]) throw std::runtime_error("reduce_by_key: more records than announced");
        auto& slot = all[filled[s]++];
        ByteReader reader(bytes);
        read_value(reader, slot.record);
        slot.source = static_cast<std::uint32_t>(source);
        if (!reader.done()) throw std::runtime_error("reduce_by_key: record longer than its fields");
      });
  if (config.stats != nullptr) {
    config.stats->rounds += stats.rounds;
    config.stats->bytes_sent += stats.bytes_sent;
    config.stats->bytes_received += stats.bytes_received;
  }

  // Merge the runs pairwise: a stable merge keeps equal keys in source order, so each row's
  // contributors come out ascending.
  std::vector<std::size_t> bounds{0};
  for (std::size_t s = 0; s < n; ++s)
    if (first[s + 1] != bounds.back()) bounds.push_back(first[s + 1]);
  const auto entry_less = [&](const auto& a, const auto& b) {
    return detail::key_less(key_of(a.record), key_of(b.record));
  };
  for (std::size_t width = 1; width + 1 < bounds.size(); width *= 2) {
    for (std::size_t i = 0; i + width + 1 < bounds.size(); i += 2 * width) {
      const std::size_t end = bounds[std::min(i + 2 * width, bounds.size() - 1)];
      std::inplace_merge(all.begin() + static_cast<std::ptrdiff_t>(bounds[i]),
                         all.begin() + static_cast<std::ptrdiff_t>(bounds[i + width]),
                         all.begin() + static_cast<std::ptrdiff_t>(end), entry_less);
    }
  }

  if (contributors != nullptr) {
    contributors->offsets.assign(1, 0);
    contributors->ranks.clear();
  }
  detail::fold_sorted(
      all, [&](const auto& e) -> decltype(auto) { return key_of(e.record); },  // no copy of a string key
      [&](auto& into, auto& from) { combine(into.record, from.record); },
      [&](const auto& row, const auto& part) {
        if (contributors == nullptr) return;
        if (&row == &part && !contributors->ranks.empty()) contributors->offsets.push_back(contributors->ranks.size());
        contributors->ranks.push_back(part.source);
      });
  if (contributors != nullptr && !all.empty()) contributors->offsets.push_back(contributors->ranks.size());

  std::vector<Record> out;
  out.reserve(all.size());
  for (auto& e : all) out.push_back(std::move(e.record));
  return out;
}

// The same with the default owner (the key's hash prefix).
template <class Record, class KeyOf, class Combine>
std::vector<Record> reduce_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of,
                                  Combine combine, const ShuffleConfig& config) {
  return reduce_by_key(transport, std::move(records), key_of, HashPrefixOwner{}, combine, config);
}

// group_by_key: for list-valued records (a key and a std::vector field `list`). Each owned key
// comes back once with the lists of all its records concatenated and sorted (duplicates kept),
// so the result is the same for any rank count and input order.
template <class Record, class KeyOf, class Owner, class Value>
std::vector<Record> group_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of, Owner owner,
                                 std::vector<Value> Record::*list, const ShuffleConfig& config) {
  auto rows = reduce_by_key(
      transport, std::move(records), key_of, owner,
      [list](Record& into, Record& from) {
        auto& to = into.*list;
        auto& more = from.*list;
        to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
      },
      config);
  for (Record& r : rows) std::sort((r.*list).begin(), (r.*list).end());
  return rows;
}

}  // namespace crd::shuffle
