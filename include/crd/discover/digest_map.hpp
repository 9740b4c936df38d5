// DigestMap: an open-addressing hash map from Digest to a small value, the hot table of counting.
//
// Written by hand because the keys are already uniformly random SHA-1 digests: a linear-probing
// table indexed by digest bits needs no hash function and keeps key and value in one cache line,
// which std::unordered_map (a node per entry) does not; no Debian-packaged library in crd's
// dependency set provides a flat map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "crd/base/prefault.hpp"
#include "crd/hash/digest.hpp"

namespace crd::discover {

template <class Value>
class DigestMap {
  // An empty slot is all zero bytes, so a table is one calloc: the kernel hands out zeroed pages
  // on first touch, where filling a vector with empty slots wrote every page up front (the
  // counting phase's largest source of page faults before).
  static_assert(std::is_integral_v<Value>, "DigestMap values are integers (zero bytes = empty slot)");

 public:
  struct Slot {
    Digest key;
    bool used = false;
    Value value{};
  };
  static_assert(std::is_trivially_copyable_v<Slot>);

  explicit DigestMap(std::size_t expected = 1024) { rehash(capacity_for(expected)); }
  DigestMap(const DigestMap&) = delete;
  DigestMap& operator=(const DigestMap&) = delete;
  DigestMap(DigestMap&& o) noexcept { swap(o); }
  DigestMap& operator=(DigestMap&& o) noexcept {
    DigestMap(std::move(o)).swap(*this);
    return *this;
  }
  ~DigestMap() = default;

  // Returns the value for key, inserting a value-initialized one if absent; `inserted` tells which.
  Value& find_or_insert(const Digest& key, bool& inserted) {
    if ((size_ + 1) * 4 > capacity_ * 3) rehash(capacity_ == 0 ? 16 : capacity_ * 2);  // load ≤ 3/4: short probes
    std::size_t i = index_of(key);
    while (slots_[i].used) {
      if (same_digest(slots_[i].key, key)) {
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
    if (capacity_ == 0) return nullptr;  // a moved-from map
    std::size_t i = index_of(key);
    while (slots_[i].used) {
      if (same_digest(slots_[i].key, key)) return &slots_[i].value;
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  const Value* find(const Digest& key) const { return const_cast<DigestMap*>(this)->find(key); }

  // Starts loading the slot of `key` into cache, so a later find/insert does not wait for memory.
  // A slot does not divide a cache line: when it straddles two, both are fetched (the probe reads
  // `used`, past the key, first).
  void prefetch(const Digest& key) const {
    if (capacity_ == 0) return;
    const char* slot = reinterpret_cast<const char*>(&slots_[index_of(key)]);
    __builtin_prefetch(slot);
    __builtin_prefetch(slot + sizeof(Slot) - 1);
  }

  // Makes room for `expected` keys in all without growing again (never shrinks).
  void reserve(std::size_t expected) {
    const std::size_t c = capacity_for(expected);
    if (c > capacity_) rehash(c);
  }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  // Bytes held by the table itself (values may own more).
  std::size_t memory_bytes() const { return capacity_ * sizeof(Slot); }

  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < capacity_; ++i)
      if (slots_[i].used) f(slots_[i].key, slots_[i].value);
  }
  template <class F>
  void for_each(F&& f) {
    for (std::size_t i = 0; i < capacity_; ++i)
      if (slots_[i].used) f(slots_[i].key, slots_[i].value);
  }

  void clear() {
    slots_.reset();
    capacity_ = 0;
    size_ = 0;
    rehash(16);
  }

  void swap(DigestMap& o) noexcept {
    std::swap(slots_, o.slots_);
    std::swap(capacity_, o.capacity_);
    std::swap(mask_, o.mask_);
    std::swap(size_, o.size_);
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

  // Random inserts touch every page of a large table, and the first touch is a read (the probe):
  // two faults per page unless the pages are mapped writable up front.
  struct Free {
    void operator()(Slot* p) const { std::free(p); }
  };
  using Storage = std::unique_ptr<Slot[], Free>;

  void rehash(std::size_t capacity) {
    Storage fresh(static_cast<Slot*>(std::calloc(capacity, sizeof(Slot))));
    if (!fresh) throw std::bad_alloc();
    prefault_writable(fresh.get(), capacity * sizeof(Slot));
    Storage old = std::exchange(slots_, std::move(fresh));
    const std::size_t old_capacity = std::exchange(capacity_, capacity);
    mask_ = capacity - 1;
    for (std::size_t k = 0; k < old_capacity; ++k) {
      if (!old[k].used) continue;
      std::size_t i = index_of(old[k].key);
      while (slots_[i].used) i = (i + 1) & mask_;
      slots_[i] = old[k];
    }
  }

  Storage slots_;
  std::size_t capacity_ = 0;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace crd::discover
