// PendingChunks: the chunks of one page on their way into a LocalTally, a few at a time, so that
// the table's memory is fetched ahead of the inserts.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "crd/discover/local_tally.hpp"
#include "crd/hash/digest.hpp"

namespace crd::scan {

// Each chunk's table slot is prefetched when the chunk is hashed, and the chunk is tallied kDepth
// chunks later (or when the page ends). The table outgrows the caches and the TLB: with the insert
// one chunk behind (one fetch in flight), 93% of the insert's time was the wait for its slot, a
// short chunk's SHA-1 being much shorter than a miss. With kDepth fetches in flight they overlap.
// Chunks are tallied in the order given, so ids and first pages are as without the delay; only the
// sample prefix of a chunk is kept meanwhile.
class PendingChunks {
 public:
  static constexpr std::size_t kDepth = 8;

  PendingChunks(discover::LocalTally& tally, std::size_t sample_bytes) : tally_(tally), sample_bytes_(sample_bytes) {}

  // Queues a chunk of `page`; `on_id` gets the local id of each chunk tallied meanwhile, in order.
  template <class OnId>
  void add(const Digest& digest, std::string_view normalized, std::uint32_t page, const discover::PageKeys& keys,
           OnId&& on_id) {
    tally_.prefetch(digest);
    if (size_ == kDepth) pop(keys, on_id);
    Pending& p = ring_[(head_ + size_) % kDepth];
    p.digest = digest;
    p.length = normalized.size();
    p.page = page;
    p.sample.assign(normalized.substr(0, std::min(normalized.size(), sample_bytes_)));
    ++size_;
  }

  // Tallies every queued chunk (at the end of a page).
  template <class OnId>
  void flush(const discover::PageKeys& keys, OnId&& on_id) {
    while (size_ != 0) pop(keys, on_id);
  }

 private:
  struct Pending {
    Digest digest;
    std::uint64_t length = 0;
    std::uint32_t page = 0;
    std::string sample;
  };

  template <class OnId>
  void pop(const discover::PageKeys& keys, OnId& on_id) {
    Pending& p = ring_[head_];
    on_id(tally_.add(p.digest, p.length, p.sample, p.page, keys));
    head_ = (head_ + 1) % kDepth;
    --size_;
  }

  discover::LocalTally& tally_;
  std::size_t sample_bytes_;
  std::array<Pending, kDepth> ring_{};
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace crd::scan
