// Deterministic records for shuffle tests: the global set depends only on the seed and count,
// never on the rank count, so results can be compared across 1..N ranks.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "crd/hash/digest.hpp"
#include "crd/base/byte_codec.hpp"

namespace crd::shuffle::testing {

struct Item {
  Digest key;
  std::uint64_t serial = 0;  // global index: a strict tie-breaker and an identity
  std::string text;

  bool operator==(const Item&) const = default;
};

struct ItemLess {
  bool operator()(const Item& a, const Item& b) const {
    if (a.key != b.key) return a.key < b.key;
    return a.serial < b.serial;
  }
};

inline void encode_item(const Item& it, ByteWriter& w) { w.pod(it.key).pod(it.serial).str(it.text); }
inline Item decode_item(ByteReader& r) {
  Item it;
  it.key = r.pod<Digest>();
  it.serial = r.pod<std::uint64_t>();
  it.text = std::string(r.str());
  return it;
}

// Global item i. `distinct_keys` small makes many equal keys (ties broken by serial).
inline Item make_item(std::uint64_t seed, std::uint64_t i, std::uint64_t distinct_keys) {
  std::mt19937_64 rng(seed * 1000003 + (distinct_keys ? i % distinct_keys : i));
  Item it;
  for (auto& b : it.key.bytes) b = static_cast<std::uint8_t>(rng());
  it.serial = i;
  it.text = std::string(static_cast<std::size_t>(i % 13), static_cast<char>('a' + i % 26));
  return it;
}

// The items rank `rank` of `nranks` starts with; `skew` puts everything on rank 0.
inline std::vector<Item> local_items(std::uint64_t seed, std::uint64_t total, std::uint64_t distinct_keys, int rank,
                                     int nranks, bool skew) {
  std::vector<Item> out;
  for (std::uint64_t i = 0; i < total; ++i) {
    const int home = skew ? 0 : static_cast<int>((i * 7 + i / 3) % static_cast<std::uint64_t>(nranks));
    if (home == rank) out.push_back(make_item(seed, i, distinct_keys));
  }
  return out;
}

}  // namespace crd::shuffle::testing
