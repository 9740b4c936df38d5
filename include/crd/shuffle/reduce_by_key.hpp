// reduce_by_key and group_by_key: the shuffle's one typed operation, after Thrill's ReduceByKey.
// Each rank hands in the records it produced; every key ends up combined exactly once, on the
// rank that owns it, and each rank gets back its owned results sorted by key:
//   1. local pre-combine: sort this rank's records by key and fold equal keys (one record per key
//      per rank travels);
//   2. route: encode each record from its field list (fields.hpp) into the bucket of
//      owner(key, nranks) and send them with exchange()'s bounded all-to-all rounds (unframed
//      when every record encodes to the same size); records for this rank itself skip the codec.
//      Trivially copyable records with digest keys and the default owner skip it too: sorted,
//      each owner's records are one range, sent as they lie (kSentInRanges);
//   3. owner-side combine: merge the per-source runs (each already sorted), folding equal keys.
// With a combine that is associative and commutative, the results (and their order) are the same
// for any rank count and any input order. Collective: every rank must call, with the same owner.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "crd/base/uint128.hpp"
#include "crd/base/prefault.hpp"
#include "crd/comm/transport.hpp"
#include "crd/base/byte_codec.hpp"
#include "crd/shuffle/exchange.hpp"
#include "crd/base/fields.hpp"

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

// Key order: the key's own <, except for a digest (a `bytes` array compared as unsigned bytes),
// whose leading 8 bytes are compared as one big-endian integer first; that orders exactly like
// the bytes and settles nearly every comparison of random hashes in one instruction (sorting
// the count records byte by byte was the larger part of the count exchange).
template <class Key>
concept DigestKey = requires(const Key& k) {
  k.bytes.data();
}
&&(sizeof(Key::bytes) > 8);

// A digest key's leading 8 bytes as one big-endian integer: orders exactly like those bytes.
template <class Key>
inline std::uint64_t leading64(const Key& k) {
  std::uint64_t x;
  std::memcpy(&x, k.bytes.data(), 8);
  if constexpr (std::endian::native == std::endian::little) x = __builtin_bswap64(x);
  return x;
}

template <class Key>
inline bool key_less(const Key& a, const Key& b) {
  if constexpr (DigestKey<Key>) {
    const std::uint64_t x = leading64(a), y = leading64(b);
    if (x != y) return x < y;
    return std::memcmp(a.bytes.data() + 8, b.bytes.data() + 8, sizeof(Key::bytes) - 8) < 0;
  } else {
    return a < b;
  }
}

// Key equality, a digest's inline (Digest's defaulted == is a call to memcmp, once per record of
// every fold).
template <class Key>
inline bool key_equal(const Key& a, const Key& b) {
  if constexpr (DigestKey<Key>) {
    return std::memcmp(a.bytes.data(), b.bytes.data(), sizeof(Key::bytes)) == 0;
  } else {
    return a == b;
  }
}

// Sorts [first, first + n) by the digest keys' key_less. Digests are uniform bits, so an in-place
// radix sort on their leading bytes (American flag sort: count a byte's 256 values, then swap each
// record into its bucket) leaves runs of ~20 records after two bytes of 1.2M, which std::sort
// finishes. Twice as fast as std::sort alone on 40-byte count records (its ~20 comparisons and
// moves per record), and unlike an LSD radix sort it needs no second array, which docs/memory.md
// does not count. `shift` selects the byte of leading64 that splits this range.
template <class Record, class KeyOf>
void radix_sort_digests(Record* first, std::size_t n, KeyOf& key_of, int shift = 56) {
  if (n <= 64 || shift < 0) {  // small, or equal in all 8 leading bytes: compare whole keys
    std::sort(first, first + n, [&](const Record& a, const Record& b) { return key_less(key_of(a), key_of(b)); });
    return;
  }
  const auto byte_of = [&](const Record& r) {
    return static_cast<std::size_t>((leading64(key_of(r)) >> shift) & 0xff);
  };
  std::size_t count[256] = {}, next[256], end[256];
  for (std::size_t i = 0; i < n; ++i) ++count[byte_of(first[i])];
  for (std::size_t b = 0, at = 0; b < 256; ++b) {
    next[b] = at;
    at += count[b];
    end[b] = at;
  }
  for (std::size_t b = 0; b < 256; ++b) {
    while (next[b] < end[b]) {
      const std::size_t to = byte_of(first[next[b]]);
      if (to == b) {
        ++next[b];
      } else {
        std::swap(first[next[b]], first[next[to]++]);
      }
    }
  }
  for (std::size_t b = 0, at = 0; b < 256; at += count[b], ++b)
    radix_sort_digests(first + at, count[b], key_of, shift - 8);
}

// Sorts records by key (key_less): by radix for digest keys, else std::sort.
template <class Record, class KeyOf>
void sort_by_key(std::vector<Record>& records, KeyOf& key_of) {
  const auto by_key = [&](const Record& a, const Record& b) { return key_less(key_of(a), key_of(b)); };
  if (std::is_sorted(records.begin(), records.end(), by_key)) return;
  using Key = std::remove_cvref_t<decltype(key_of(records.front()))>;
  if constexpr (DigestKey<Key>) {
    radix_sort_digests(records.data(), records.size(), key_of);
  } else {
    std::sort(records.begin(), records.end(), by_key);
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
    for (; j < v.size() && key_equal(key_of(v[j]), key_of(v[out])); ++j) {
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

// Sorted by a digest key, the default owner's records form one contiguous range per rank (its
// ranges of the hash space ascend with the key order: prefix64() is leading64()). Records that
// are trivially copyable can then be sent as they lie, as their own bytes between processes of
// one binary, with no copy into buckets (as many fresh pages as the records sent) and no per-field
// encoding: routing and encoding were 12 ms of the 2-rank count exchange (docs28k), now 1.
template <class Record, class Key, class Owner>
inline constexpr bool kSentInRanges =
    std::is_same_v<Owner, HashPrefixOwner> && DigestKey<Key> && std::is_trivially_copyable_v<Record>;

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

// Adds one exchange's traffic to the caller's statistics, if it asked for them.
inline void add_stats(const ShuffleConfig& config, const ExchangeStats& stats) {
  if (config.stats == nullptr) return;
  config.stats->rounds += stats.rounds;
  config.stats->bytes_sent += stats.bytes_sent;
  config.stats->bytes_received += stats.bytes_received;
}

// reduce_by_key's steps 2 and 3 for kSentInRanges records, sorted and folded.
template <class Record, class KeyOf, class Combine>
std::vector<Record> reduce_sorted_ranges(comm::Transport& transport, std::vector<Record> records, KeyOf& key_of,
                                         Combine& combine, const ShuffleConfig& config, Contributors* contributors) {
  const int nranks = transport.size();
  const auto n = static_cast<std::size_t>(nranks);
  const auto me = static_cast<std::size_t>(transport.rank());
  const HashPrefixOwner owner;
  // Rank d owns records [first[d], first[d + 1]).
  std::vector<std::size_t> first(n + 1, records.size());
  first[0] = 0;
  for (std::size_t d = 1; d < n; ++d) {
    const auto below = [&](const Record& r) { return static_cast<std::size_t>(owner(key_of(r), nranks)) < d; };
    first[d] = static_cast<std::size_t>(
        std::partition_point(records.begin() + static_cast<std::ptrdiff_t>(first[d - 1]), records.end(), below) -
        records.begin());
  }
  std::vector<std::uint64_t> per_dest(n);
  std::vector<std::span<const std::byte>> send(n);
  for (std::size_t d = 0; d < n; ++d) {
    per_dest[d] = first[d + 1] - first[d];
    if (per_dest[d] != 0 && (owner(key_of(records[first[d]]), nranks) != static_cast<int>(d) ||
                             owner(key_of(records[first[d + 1] - 1]), nranks) != static_cast<int>(d)))
      throw std::logic_error("reduce_by_key: owner ranges out of key order");
    if (d != me) send[d] = std::as_bytes(std::span<const Record>(records).subspan(first[d], per_dest[d]));
  }
  const std::vector<std::uint64_t> incoming = transport.alltoall(per_dest);
  std::vector<std::vector<Record>> runs = announced_runs<Record>(incoming, me);
  const ExchangeStats stats =
      exchange_in_place(transport, send, sizeof(Record), config.round_bytes, [&](int source, std::span<const std::byte> bytes) {
        auto& run = runs[static_cast<std::size_t>(source)];
        check_room(run, incoming[static_cast<std::size_t>(source)], bytes.size() / sizeof(Record));
        const std::size_t at = run.size();
        run.resize(at + bytes.size() / sizeof(Record));  // within the announced, prefaulted capacity
        std::memcpy(static_cast<void*>(run.data() + at), bytes.data(), bytes.size());
      });
  // This rank's own range stays in its vector: what follows it is dropped, what precedes it moved over.
  records.erase(records.begin() + static_cast<std::ptrdiff_t>(first[me + 1]), records.end());
  records.erase(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(first[me]));
  runs[me] = std::move(records);
  check_all_arrived(runs, incoming);
  add_stats(config, stats);
  return merge_runs(runs, key_of, combine, contributors);
}

}  // namespace detail

// combine(Record& into, Record& from) folds `from` (which is discarded afterwards) into `into`;
// key_of(const Record&) returns a key with < and ==; owner(key, nranks) returns a rank. Returns
// this rank's owned results, ascending by key; `contributors`, if given, is filled parallel.
template <class Record, class KeyOf, class Owner, class Combine>
std::vector<Record> reduce_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of, Owner owner,
                                  Combine combine, const ShuffleConfig& config, Contributors* contributors = nullptr) {
  detail::sort_by_key(records, key_of);
  detail::fold_sorted(records, key_of, combine, [](const Record&, const Record&) {});

  const int nranks = transport.size();
  if (nranks == 1) return detail::owned_by_one_rank(std::move(records), key_of, owner, contributors);
  using Key = std::remove_cvref_t<decltype(key_of(records.front()))>;
  if constexpr (detail::kSentInRanges<Record, Key, Owner>)
    return detail::reduce_sorted_ranges(transport, std::move(records), key_of, combine, config, contributors);
  const auto n = static_cast<std::size_t>(nranks);
  const auto me = static_cast<std::size_t>(transport.rank());
  // Records of one size on every rank (their fields are all PODs) travel unframed, written
  // straight into one block per destination and read back a source's run at a time.
  constexpr std::size_t kFixed = fixed_encoded_size<Record>();
  Buckets buckets(nranks, kFixed);
  std::vector<int> dest(records.size());
  std::vector<std::uint64_t> per_dest(n, 0);
  std::vector<std::size_t> framed(n, 0);
  for (std::size_t i = 0; i < records.size(); ++i) {
    dest[i] = owner(key_of(records[i]), nranks);
    if (dest[i] < 0 || dest[i] >= nranks) throw std::out_of_range("reduce_by_key: owner outside the ranks");
    const auto d = static_cast<std::size_t>(dest[i]);
    ++per_dest[d];
    if constexpr (kFixed == 0)
      if (d != me) framed[d] += buckets.framed_bytes(encoded_size(records[i]));
  }
  // This rank's own records never pass through the codec.
  const std::vector<std::uint64_t> incoming = transport.alltoall(per_dest);
  std::vector<std::vector<Record>> runs = detail::announced_runs<Record>(incoming, me);

  std::vector<std::byte*> block(n, nullptr);  // fixed records: where dest's next record goes
  for (std::size_t d = 0; d < n; ++d) {
    if (d == me) continue;
    if constexpr (kFixed != 0) {
      block[d] = buckets.append_records(static_cast<int>(d), static_cast<std::size_t>(per_dest[d]));
    } else {
      buckets.reserve(static_cast<int>(d), framed[d]);
    }
  }
  // This rank's own run stays where it is, its records moved down over those sent: a run of its
  // own (half of a 2-rank job's records) was as many fresh pages, faulted in, and a copy.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto d = static_cast<std::size_t>(dest[i]);
    if (d == me) {
      if (kept != i) records[kept] = std::move(records[i]);
      ++kept;
      continue;
    }
    if constexpr (kFixed != 0) {
      SpanWriter w(block[d]);
      write_value(w, records[i]);
      block[d] += kFixed;
    } else {
      SpanWriter w(buckets.append(dest[i], encoded_size(records[i])));
      write_value(w, records[i]);
    }
  }
  records.erase(records.begin() + static_cast<std::ptrdiff_t>(kept), records.end());
  runs[me] = std::move(records);
  std::vector<int>().swap(dest);

  ExchangeStats stats;
  if constexpr (kFixed != 0) {
    stats = exchange_fixed(transport, buckets, config.round_bytes, [&](int source, std::span<const std::byte> bytes) {
      const auto s = static_cast<std::size_t>(source);
      auto& run = runs[s];
      const std::size_t count = bytes.size() / kFixed;  // exchange_fixed gives whole records
      detail::check_room(run, incoming[s], count);
      for (std::size_t k = 0; k < count; ++k) {
        ByteReader reader(bytes.subspan(k * kFixed, kFixed));
        read_value(reader, run.emplace_back());
      }
    });
  } else {
    stats = exchange(transport, buckets, config.round_bytes, [&](int source, std::span<const std::byte> bytes) {
      const auto s = static_cast<std::size_t>(source);
      auto& run = runs[s];
      detail::check_room(run, incoming[s], 1);
      ByteReader reader(bytes);
      read_value(reader, run.emplace_back());
      if (!reader.done()) throw std::runtime_error("reduce_by_key: record longer than its fields");
    });
  }
  detail::check_all_arrived(runs, incoming);
  detail::add_stats(config, stats);

  return detail::merge_runs(runs, key_of, combine, contributors);
}

// The same with the default owner (the key's hash prefix).
template <class Record, class KeyOf, class Combine>
std::vector<Record> reduce_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of,
                                  Combine combine, const ShuffleConfig& config) {
  return reduce_by_key(transport, std::move(records), key_of, HashPrefixOwner{}, combine, config);
}

namespace detail {

// build_in_key_order with bucket offsets of type Offset, which holds n.
template <class Offset, class Record, class KeyAt, class Make, class KeyOf>
std::vector<Record> build_in_key_order_with(std::size_t n, KeyAt& key_at, Make& make, KeyOf& key_of) {
  using Key = std::remove_cvref_t<decltype(key_at(std::size_t{0}))>;
  static_assert(DigestKey<Key>, "build_in_key_order: keys are digests");
  const int bits = std::clamp(static_cast<int>(std::bit_width(n)) - 3, 8, 17);
  const auto bucket = [&](std::size_t i) { return static_cast<std::size_t>(leading64(key_at(i)) >> (64 - bits)); };
  std::vector<Offset> start((std::size_t{1} << bits) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++start[bucket(i) + 1];
  for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  std::vector<Record> records;
  reserve_writable(records, n);
  records.resize(n);
  std::vector<Offset> next(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) records[next[bucket(i)]++] = make(i);
  const auto by_key = [&](const Record& x, const Record& y) { return key_less(key_of(x), key_of(y)); };
  for (std::size_t b = 0; b + 1 < start.size(); ++b) {
    const std::size_t first = start[b], end = start[b + 1];
    if (end - first > 32) {  // crowded (keys made to share leading bits): n log n, not n²
      std::stable_sort(records.begin() + static_cast<std::ptrdiff_t>(first),
                       records.begin() + static_cast<std::ptrdiff_t>(end), by_key);
      continue;
    }
    for (std::size_t i = first + 1; i < end; ++i) {
      if (!by_key(records[i], records[i - 1])) continue;
      Record moving = std::move(records[i]);
      std::size_t j = i;
      for (; j > first && by_key(moving, records[j - 1]); --j) records[j] = std::move(records[j - 1]);
      records[j] = std::move(moving);
    }
  }
  return records;
}

}  // namespace detail

// Records make(0), …, make(n - 1) ascending by their digest keys (key_at(i) is make(i)'s key_of),
// equal keys in index order: what reduce_by_key finds already sorted and sorts no further. The
// build is the sort's first pass: a count of the keys' leading bits (about n/8 buckets), each record
// written straight into its bucket, then each bucket (a few records) sorted by insertion (a crowded
// one, of keys made to share their leading bits, by std::stable_sort). Building the records and
// then sorting them moved each one three times, the radix sort's swap cycles a chain of dependent
// reads: a one-rank discover phase (docs28k, 1.2M count records) 0.087 -> 0.071 s. Bucket offsets
// are 32-bit when they can be, which keeps them in cache.
template <class Record, class KeyAt, class Make, class KeyOf>
std::vector<Record> build_in_key_order(std::size_t n, KeyAt key_at, Make make, KeyOf key_of) {
  if (n <= UINT32_MAX) return detail::build_in_key_order_with<std::uint32_t, Record>(n, key_at, make, key_of);
  return detail::build_in_key_order_with<std::uint64_t, Record>(n, key_at, make, key_of);
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
