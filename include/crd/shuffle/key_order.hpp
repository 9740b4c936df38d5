// Key order for the shuffle: how reduce_by_key compares, sorts and folds keys, and
// build_in_key_order, which writes records straight into that order. Kept apart from the routing
// (reduce_by_key.hpp) because it is local work that knows nothing of ranks: the pre-phase of
// Thrill's ReduceByKey, testable on one thread.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "crd/base/prefault.hpp"

namespace crd::shuffle {

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
// reads. Bucket offsets are 32-bit when they can be, which keeps them in cache.
template <class Record, class KeyAt, class Make, class KeyOf>
std::vector<Record> build_in_key_order(std::size_t n, KeyAt key_at, Make make, KeyOf key_of) {
  if (n <= UINT32_MAX) return detail::build_in_key_order_with<std::uint32_t, Record>(n, key_at, make, key_of);
  return detail::build_in_key_order_with<std::uint64_t, Record>(n, key_at, make, key_of);
}

}  // namespace crd::shuffle
