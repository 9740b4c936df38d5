// DigestIndex: digest → dense id, for digests kept in a column the caller owns (LocalTally's).
//
// DigestMap stores each 20-byte key in its 28-byte slot; a LocalTally also keeps every digest in
// its own column, so the key was held twice and the table (~56 MB at 1.2M distinct chunks) far
// outgrew the cache. Here a slot is 8 bytes: a 32-bit tag of the digest and id + 1. Eight slots
// fill a cache line and never straddle two, and the table is 3.5× smaller.
//
// A tag match is only a candidate: it is verified against the full digest in the column
// (digests[id]), because crd never treats a partial match as equal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <utility>

#include "crd/base/prefault.hpp"
#include "crd/base/prefetch.hpp"
#include "crd/hash/digest.hpp"

namespace crd::discover {

class DigestIndex {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;  // find's answer for an absent digest

  explicit DigestIndex(std::size_t expected = 1024) { allocate(capacity_for(expected)); }
  DigestIndex(const DigestIndex&) = delete;
  DigestIndex& operator=(const DigestIndex&) = delete;
  DigestIndex(DigestIndex&& o) noexcept { swap(o); }
  DigestIndex& operator=(DigestIndex&& o) noexcept {
    DigestIndex(std::move(o)).swap(*this);
    return *this;
  }
  ~DigestIndex() = default;

  struct Found {
    std::uint32_t id;
    bool inserted;
  };

  // The id of `digest` in `digests` (the column: digests[id] is the digest given that id). If
  // absent, `digest` takes id digests.size(), and the caller must append it to the column before
  // the next call. `digests` holds exactly the ids given so far.
  Found find_or_insert(const Digest& digest, std::span<const Digest> digests) {
    if ((digests.size() + 1) * 4 > capacity_ * 3) grow(digests);  // load ≤ 3/4: short probes
    const std::uint64_t tag = tag_of(digest);
    std::size_t i = index_of(digest);
    for (std::uint64_t s; (s = slots_[i]) != 0; i = (i + 1) & mask_) {
      if ((s & kTagMask) != tag) continue;
      const auto id = static_cast<std::uint32_t>((s >> 32) - 1);
      if (same_digest(digests[id], digest)) return {id, false};
    }
    if (digests.size() >= kNone) throw std::length_error("DigestIndex: more than 2^32 - 1 ids");
    const auto id = static_cast<std::uint32_t>(digests.size());
    slots_[i] = slot_of(tag, id);
    return {id, true};
  }

  // The id of `digest` in `digests`, or kNone.
  std::uint32_t find(const Digest& digest, std::span<const Digest> digests) const {
    if (capacity_ == 0) return kNone;  // a moved-from index
    const std::uint64_t tag = tag_of(digest);
    for (std::size_t i = index_of(digest); slots_[i] != 0; i = (i + 1) & mask_) {
      if ((slots_[i] & kTagMask) != tag) continue;
      const auto id = static_cast<std::uint32_t>((slots_[i] >> 32) - 1);
      if (same_digest(digests[id], digest)) return id;
    }
    return kNone;
  }

  // Starts loading the home slot of `digest` into cache, so a later find/insert does not wait for
  // memory. (The column entry a hit compares is not known until the slot is read.)
  void prefetch(const Digest& digest) const {
    if (capacity_ != 0) crd::prefetch(&slots_[index_of(digest)]);
  }

  // The id of the first slot in `digest`'s probe run whose tag matches, or kNone: a guess, not
  // verified against the column (for a prefetch hint; find and find_or_insert decide).
  std::uint32_t candidate(const Digest& digest) const {
    if (capacity_ == 0) return kNone;
    const std::uint64_t tag = tag_of(digest);
    for (std::size_t i = index_of(digest); slots_[i] != 0; i = (i + 1) & mask_)
      if ((slots_[i] & kTagMask) == tag) return static_cast<std::uint32_t>((slots_[i] >> 32) - 1);
    return kNone;
  }

  // Replaces the contents with ids 0..n-1 of `digests` (a loaded column). False if a digest occurs
  // twice in it (a corrupt column); the later one is then not indexed.
  [[nodiscard]] bool rebuild(std::span<const Digest> digests) {
    if (digests.size() >= kNone) throw std::length_error("DigestIndex: more than 2^32 - 1 ids");
    allocate(capacity_for(digests.size()));
    return insert_all(digests);
  }

  std::size_t capacity() const { return capacity_; }
  std::size_t memory_bytes() const { return capacity_ * sizeof(std::uint64_t); }

  void swap(DigestIndex& o) noexcept {
    std::swap(slots_, o.slots_);
    std::swap(capacity_, o.capacity_);
    std::swap(mask_, o.mask_);
  }

 private:
  // A slot is (id + 1) << 32 | tag; 0 is empty (a used slot's id + 1 is never 0).
  static constexpr std::uint64_t kTagMask = 0xFFFFFFFFu;
  static std::uint64_t slot_of(std::uint64_t tag, std::uint32_t id) { return (std::uint64_t{id} + 1) << 32 | tag; }

  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 16;
    while (c * 3 < n * 4) c *= 2;
    return c;
  }
  // The position comes from bytes 8..15 (DigestHasher: independent of the leading bits that choose
  // the owner rank, so a rank's keys spread over the whole table); the tag from bytes 16..19,
  // which no position below 2^64 slots uses, so keys sharing a home slot still differ in tag.
  std::size_t index_of(const Digest& d) const { return DigestHasher{}(d) & mask_; }
  static std::uint64_t tag_of(const Digest& d) {
    std::uint32_t t;
    std::memcpy(&t, d.bytes.data() + 16, sizeof t);
    return t;
  }

  // Doubling rebuilds from the column in id order: it reads the digests sequentially (the old
  // slots hold no position bits), and ids never change.
  void grow(std::span<const Digest> digests) {
    allocate(capacity_ == 0 ? 16 : capacity_ * 2);  // 0: a moved-from index
    (void)insert_all(digests);  // the column came from find_or_insert: distinct
  }
  // False if some digest occurs twice (checked on tag matches only: rare, so nearly free).
  bool insert_all(std::span<const Digest> digests) {
    bool distinct = true;
    for (std::size_t id = 0; id < digests.size(); ++id) {
      const std::uint64_t tag = tag_of(digests[id]);
      std::size_t i = index_of(digests[id]);
      bool twice = false;
      for (; slots_[i] != 0; i = (i + 1) & mask_)
        twice = twice || ((slots_[i] & kTagMask) == tag && same_digest(digests[(slots_[i] >> 32) - 1], digests[id]));
      if (twice) {
        distinct = false;
        continue;
      }
      slots_[i] = slot_of(tag, static_cast<std::uint32_t>(id));
    }
    return distinct;
  }

  // An empty slot is zero, so a table is one calloc, its pages mapped writable in one call: random
  // inserts touch every page, first by a read (two faults per page otherwise; see prefault.hpp).
  struct Free {
    void operator()(std::uint64_t* p) const { std::free(p); }
  };
  void allocate(std::size_t capacity) {
    std::unique_ptr<std::uint64_t[], Free> fresh(
        static_cast<std::uint64_t*>(std::calloc(capacity, sizeof(std::uint64_t))));
    if (!fresh) throw std::bad_alloc();
    prefault_writable(fresh.get(), capacity * sizeof(std::uint64_t));
    slots_ = std::move(fresh);
    capacity_ = capacity;
    mask_ = capacity - 1;
  }

  std::unique_ptr<std::uint64_t[], Free> slots_;
  std::size_t capacity_ = 0;
  std::size_t mask_ = 0;
};

}  // namespace crd::discover
