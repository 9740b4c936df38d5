// The flat key → ids table (posting_table.hpp).
#include "posting_table.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "crd/text/fingerprint.hpp"

namespace crd::compare {

PostingTable::PostingTable(std::vector<KeyedId> pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  if (pairs.size() >= UINT32_MAX) throw std::length_error("PostingTable: more than 2^32 - 1 entries");
  for (std::size_t i = 0; i < pairs.size(); ++i) keys_ += i == 0 || pairs[i].key != pairs[i - 1].key;
  slots_.resize(std::bit_ceil(std::max<std::size_t>(2 * keys_, 2)));
  ids_.reserve(pairs.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i == 0 || pairs[i].key != pairs[i - 1].key) {
      at = slot_of(pairs[i].key);
      slots_[at].key = pairs[i].key;
      slots_[at].begin = static_cast<std::uint32_t>(ids_.size());
    }
    ids_.push_back(pairs[i].id);
    slots_[at].end = static_cast<std::uint32_t>(ids_.size());
  }
}

// The key's slot, or the empty slot where it would go.
std::size_t PostingTable::slot_of(std::uint64_t key) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = text::mix64(key) & mask;; i = (i + 1) & mask)
    if (slots_[i].end == 0 || slots_[i].key == key) return i;
}

std::span<const std::uint32_t> PostingTable::find(std::uint64_t key) const {
  if (slots_.empty()) return {};
  const Slot& s = slots_[slot_of(key)];
  if (s.end == 0) return {};
  return {ids_.data() + s.begin, s.end - s.begin};
}

std::uint64_t PostingTable::memory_bytes() const {
  return ids_.capacity() * sizeof(std::uint32_t) + slots_.capacity() * sizeof(Slot);
}

}  // namespace crd::compare
