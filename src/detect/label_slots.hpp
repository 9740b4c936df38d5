// LabelSlots: numbers the distinct label ids one rank meets (0, 1, 2, … in first-seen order), so
// per-label tallies can live in a plain vector indexed by slot.
//
// A flat linear-probing table of 32-bit ids beside their slots, where std::unordered_map (a node
// per entry) took a cache miss and an allocation per new label; label_provenance looks up every
// page match (about 800 a page with --chunker winnow). Label ids are below 2^32 − 1 (detect refuses
// more labels), so ~0 marks an empty entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace crd::detect::detail {

class LabelSlots {
 public:
  explicit LabelSlots(std::size_t expected = 0) { rehash(capacity_for(expected)); }

  // The slot of `id`, a new one (== size() before the call) if it was not seen before.
  std::uint32_t slot(std::uint32_t id) {
    std::size_t i = index_of(id);
    while (entries_[i].id != kEmpty) {
      if (entries_[i].id == id) return entries_[i].slot;
      i = (i + 1) & mask_;
    }
    const auto s = static_cast<std::uint32_t>(ids_.size());
    entries_[i] = {id, s};
    ids_.push_back(id);
    if (ids_.size() * 2 > entries_.size()) rehash(entries_.size() * 2);  // load ≤ 1/2: short probes
    return s;
  }

  std::size_t size() const { return ids_.size(); }
  // The id of each slot.
  const std::vector<std::uint32_t>& ids() const { return ids_; }

 private:
  static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};
  struct Entry {
    std::uint32_t id = kEmpty;
    std::uint32_t slot = 0;
  };

  static std::size_t capacity_for(std::size_t expected) {
    std::size_t c = 4;
    while (c < expected * 2) c *= 2;
    return c;
  }
  // Fibonacci hashing: label ids are dense small integers, so their low bits alone would cluster.
  std::size_t index_of(std::uint32_t id) const {
    return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void rehash(std::size_t capacity) {
    entries_.assign(capacity, Entry{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    for (std::uint32_t s = 0; s < ids_.size(); ++s) {
      std::size_t i = index_of(ids_[s]);
      while (entries_[i].id != kEmpty) i = (i + 1) & mask_;
      entries_[i] = {ids_[s], s};
    }
  }

  std::vector<Entry> entries_;
  std::vector<std::uint32_t> ids_;
  std::size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace crd::detect::detail
