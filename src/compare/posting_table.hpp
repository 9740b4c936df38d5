// A read-only map from 64-bit keys to lists of ids, built once: the keys' lists in one array and
// the keys in an open-addressing table (linear probing, at most half full). Replaces a
// node-based map of strings for ssdeep's candidate index, whose lookups (a string built, hashed
// and compared per 7-gram, a cache miss per node) were 15 % of compare-hashing's cycles.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace crd::compare {

struct KeyedId {
  std::uint64_t key;
  std::uint32_t id;
  auto operator<=>(const KeyedId&) const = default;
};

class PostingTable {
 public:
  PostingTable() = default;
  // Every (key, id) pair; repeats are kept once. Each key's ids ascend.
  explicit PostingTable(std::vector<KeyedId> pairs);
  // The ids filed under key (empty if none).
  std::span<const std::uint32_t> find(std::uint64_t key) const;
  std::size_t keys() const { return keys_; }
  // Bytes held (for --memory).
  std::uint64_t memory_bytes() const;

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t begin = 0, end = 0;  // end == 0: empty (a filed key has begin < end)
  };
  std::size_t slot_of(std::uint64_t key) const;

  std::vector<std::uint32_t> ids_;
  std::vector<Slot> slots_;  // a power of two long
  std::size_t keys_ = 0;
};

}  // namespace crd::compare
