// DigestMap: an open-addressing hash map from Digest to a small value, the hot table of counting.
//
// Written by hand because the keys are already uniformly random SHA-1 digests: a linear-probing
// table indexed by digest bits needs no hash function and keeps key and value in one cache line,
// which std::unordered_map (a node per entry) does not; no Debian-packaged library in crd's
// dependency set provides a flat map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "crd/hash/digest.hpp"

namespace crd::discover {

template <class Value>
class DigestMap {
 public:
  struct Slot {
    Digest key;
    bool used = false;
    Value value{};
  };

  explicit DigestMap(std::size_t expected = 1024) { rehash(capacity_for(expected)); }

  // Returns the value for key, inserting a value-initialized one if absent; `inserted` tells which.
  Value& find_or_insert(const Digest& key, bool& inserted) {
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(slots_.size() * 2);  // load ≤ 3/4: short probes
    std::size_t i = index_of(key);
    while (slots_[i].used) {
      if (slots_[i].key == key) {
        inserted = false;
        return slots_[i].value;
      }
      i = (i + 1) & mask_;
    }
    slots_[i].used = true;
    slots_[i].key = key;
    ++size_;
    inserted = true;
    return slots_[i].value;
  }

  Value* find(const Digest& key) {
    std::size_t i = index_of(key);
    while (slots_[i].used) {
      if (slots_[i].key == key) return &slots_[i].value;
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  const Value* find(const Digest& key) const { return const_cast<DigestMap*>(this)->find(key); }

  // Starts loading the slot of `key` into cache, so a later find/insert does not wait for memory.
  void prefetch(const Digest& key) const { __builtin_prefetch(&slots_[index_of(key)]); }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return slots_.size(); }
  // Bytes held by the table itself (values may own more).
  std::size_t memory_bytes() const { return slots_.size() * sizeof(Slot); }

  template <class F>
  void for_each(F&& f) const {
    for (const auto& s : slots_)
      if (s.used) f(s.key, s.value);
  }
  template <class F>
  void for_each(F&& f) {
    for (auto& s : slots_)
      if (s.used) f(s.key, s.value);
  }

  void clear() {
    std::vector<Slot>().swap(slots_);
    size_ = 0;
    rehash(16);
  }

 private:
  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 16;
    while (c * 3 < n * 4) c *= 2;
    return c;
  }
  // Bytes 8..15 of the digest: independent of the leading bits that choose the owner rank, so a
  // rank's owned keys still spread over the whole table.
  std::size_t index_of(const Digest& key) const { return DigestHasher{}(key) & mask_; }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (auto& s : old) {
      if (!s.used) continue;
      std::size_t i = index_of(s.key);
      while (slots_[i].used) i = (i + 1) & mask_;
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace crd::discover
