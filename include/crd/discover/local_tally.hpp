// LocalTally: what one rank saw of each distinct hash in its shard — occurrences, length, the page
// whose key sorts first, and (for chunks) a text sample. Ids are dense, in first-seen order.
//
// Memory per distinct hash: an 8-byte index slot (load 3/8 to 3/4) plus 48 bytes of columns (each
// doubling, so up to twice that reserved), plus the sample (≤ sample_bytes) when samples are kept.
// docs/memory.md has the full model.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crd/base/binary_file.hpp"
#include "crd/base/prefetch.hpp"
#include "crd/discover/digest_index.hpp"
#include "crd/hash/digest.hpp"

namespace crd::discover {

// Page keys of this rank's shard, by local page index.
using PageKeys = std::vector<std::string>;

class LocalTally {
 public:
  // sample_bytes = 0 keeps no samples (files).
  explicit LocalTally(std::size_t sample_bytes);

  // Records one occurrence of `digest` on page `page` (an index into keys). `text` is the
  // normalized chunk (only its first sample_bytes bytes are kept, at first sight).
  std::uint32_t add(const Digest& digest, std::uint64_t length, std::string_view text,
                    std::uint32_t page, const PageKeys& keys);

  // Hint that `digest` will be added soon (see scan_shard: the insert is one chunk behind).
  void prefetch(const Digest& digest) const { index_.prefetch(digest); }
  // The second hint, once the slot is cached: starts loading what an add of a digest seen before
  // reads and writes (its digest, count and first page), so that the add finds them cached too.
  // Nothing for a new digest, whose columns are appended at their warm ends.
  void prefetch_row(const Digest& digest) const {
    const std::uint32_t id = index_.candidate(digest);
    if (id >= digests_.size()) return;
    const char* row = reinterpret_cast<const char*>(&digests_[id]);
    crd::prefetch(row);
    crd::prefetch(row + sizeof(Digest) - 1);  // a 20-byte digest may straddle two lines
    crd::prefetch(&counts_[id]);
    crd::prefetch(&first_page_[id]);
  }

  std::size_t distinct() const { return digests_.size(); }
  std::uint64_t total() const { return total_; }
  const Digest& digest(std::uint32_t id) const { return digests_[id]; }
  std::uint64_t count(std::uint32_t id) const { return counts_[id]; }
  std::uint64_t length(std::uint32_t id) const { return lengths_[id]; }
  std::uint32_t first_page(std::uint32_t id) const { return first_page_[id]; }
  std::string_view sample(std::uint32_t id) const;
  // Local id of a digest, or -1.
  std::int64_t find(const Digest& digest) const;

  std::size_t memory_bytes() const;

  // Checkpoints (pipeline/checkpoint.hpp): the columns; the index is rebuilt on load.
  void save(BinaryFileWriter& out) const;
  static LocalTally load(BinaryFileReader& in);

 private:
  std::size_t sample_bytes_;
  DigestIndex index_;  // over digests_: each digest is held once
  std::vector<Digest> digests_;
  std::vector<std::uint64_t> counts_;
  std::vector<std::uint64_t> lengths_;
  std::vector<std::uint32_t> first_page_;
  // Samples live in fixed blocks that are never moved: one growing string copied the whole arena
  // (the largest table) at every doubling and touched twice its pages. A sample never straddles
  // two blocks; sample_at_[id] packs its position (block << kBlockBits | offset) and its length.
  static constexpr unsigned kBlockBits = 22;  // 4 MiB blocks; a sample is at most 64 KiB
  static constexpr std::size_t kBlockBytes = std::size_t{1} << kBlockBits;
  static constexpr unsigned kLengthShift = 47;
  struct SampleSpot {
    std::size_t block;
    std::size_t offset;
    std::size_t length;
  };
  static SampleSpot unpack(std::uint64_t at) {
    const std::uint64_t position = at & ((std::uint64_t{1} << kLengthShift) - 1);
    return {static_cast<std::size_t>(position >> kBlockBits), static_cast<std::size_t>(position & (kBlockBytes - 1)),
            static_cast<std::size_t>(at >> kLengthShift)};
  }
  std::size_t used_in(std::size_t block) const { return block + 1 == blocks_.size() ? block_used_ : kBlockBytes; }
  void keep_sample(std::string_view sample);
  // The columns grow together, doubling, their new pages mapped at once (not faulted per page).
  void grow_columns();

  // Chunks seen again are most of a tally's adds, and comparing the page keys for first_page
  // (two strings far apart in memory) cost more than the count itself. Pages come in listing
  // order, which is nearly key order: while the page being added has a key ≥ every page's added
  // before, no comparison can change first_page, and one comparison per page replaces one per
  // chunk. Holds for pages in any order, given the same keys at every add.
  static constexpr std::uint32_t kNoPage = UINT32_MAX;
  void note_page(std::uint32_t page, const PageKeys& keys);
  // When the order must be looked at, the first 8 bytes of each page's key (big-endian, zero
  // padded, by page index) decide it unless they tie: one load from a dense column instead of
  // two strings far apart in memory (the page that holds first_page is any earlier page).
  // Filled from the keys as pages come; not saved in checkpoints (rebuilt from the keys).
  static std::uint64_t key_prefix(const std::string& key);
  bool key_less(std::uint32_t a, std::uint32_t b, const PageKeys& keys) const {
    return key_prefix_[a] != key_prefix_[b] ? key_prefix_[a] < key_prefix_[b] : keys[a] < keys[b];
  }
  std::vector<std::uint64_t> key_prefix_;
  std::uint32_t last_page_ = kNoPage;      // the page of the latest add
  std::uint32_t greatest_page_ = kNoPage;  // a page with the greatest key of all pages added
  bool page_is_greatest_ = false;          // last_page_'s key is ≥ every key added before it
  bool greatest_known_ = true;             // false after a checkpoint load: always compare

  std::vector<std::uint64_t> sample_at_;  // n entries when samples are kept
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_used_ = 0;  // bytes used in the last block
  std::uint64_t total_ = 0;
};

}  // namespace crd::discover
