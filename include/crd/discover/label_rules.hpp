// Which hashes become labels: count over a threshold, minus stop items (paper §4.2, §4.4.2).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "crd/discover/local_tally.hpp"
#include "crd/hash/digest.hpp"

namespace crd::discover {

// Stop chunks/files: known benign content (empty paragraph, reject-all robots.txt, …).
//
// An exact sorted table of digests, 20 bytes per entry on every rank plus a 256 KiB index by the
// first two bytes (a 10^7-entry list: 191 MiB, loaded in seconds; perf/RESULTS.md). Not a Bloom filter, which §4.4.2 suggests for large lists:
// its false positives would silently drop real content from L and from every page's count, the
// imprecision crd's exact hashing exists to avoid (§6.5); and not a hash set, which took 58 bytes
// per entry and 3× the load time — its lookups are ~2× faster, but crd looks up each distinct
// chunk once, not each occurrence, so memory is what limits the list's size.
class StopList {
 public:
  // One entry per line: 40 hex digits = a SHA-1; any other line = a literal chunk, normalized
  // like chunks are and hashed. Blank lines and lines starting with '#' are skipped.
  // Throws UsageError if the file cannot be read.
  static StopList load(const std::string& path);
  // Digests in any order, duplicates allowed.
  static StopList from_digests(std::vector<Digest> hashes);
  bool contains(const Digest& d) const {
    // SHA-1 bytes are uniform: the first two pick a run of ~size/65536 entries to search.
    const std::size_t b = bucket(d);
    if (b + 1 >= starts_.size()) return false;
    const auto first = hashes_.begin() + starts_[b], last = hashes_.begin() + starts_[b + 1];
    return std::binary_search(first, last, d);
  }
  std::size_t size() const { return hashes_.size(); }
  std::size_t memory_bytes() const {
    return hashes_.capacity() * sizeof(Digest) + starts_.capacity() * sizeof(std::uint32_t);
  }

 private:
  static std::size_t bucket(const Digest& d) { return (std::size_t{d.bytes[0]} << 8) | d.bytes[1]; }

  std::vector<Digest> hashes_;          // sorted, unique
  std::vector<std::uint32_t> starts_;   // 65537 offsets: bucket b is [starts_[b], starts_[b + 1])
};

struct LabelRules {
  std::uint64_t threshold = 0;         // labeled when count > threshold
  std::uint64_t min_length = 0;        // shorter items are stop items
  const StopList* stop = nullptr;      // may be null
  // Of the items passing the rules above, label only the `top` most frequent (0 = all): count
  // descending, ties by hash ascending (the output order), so the cut is the same for any rank
  // count (discover/top_cut.hpp). Not part of labeled(): it depends on every other item.
  std::uint64_t top = 0;

  bool is_stop(const Digest& d, std::uint64_t length) const {
    return length < min_length || (stop != nullptr && stop->contains(d));
  }
  bool labeled(const Digest& d, std::uint64_t count, std::uint64_t length) const {
    return count > threshold && !is_stop(d, length);
  }
};

// A job's stop items, loaded once: the --stop-chunks list ("" = none) and --min-chunk-length.
// Every LabelRules of a job comes from here, so discovery, labeling, detection and crd check drop
// the same chunks.
class StopItems {
 public:
  StopItems() = default;
  StopItems(const std::string& list_path, std::uint64_t min_chunk_length);  // throws UsageError

  LabelRules chunk_rules(std::uint64_t threshold = 0, std::uint64_t top = 0) const {
    return {threshold, min_chunk_length_, list_.get(), top};
  }
  // Whole files are stop items only by the list: the minimum length is for chunks.
  LabelRules file_rules(std::uint64_t threshold, std::uint64_t top = 0) const {
    return {threshold, 0, list_.get(), top};
  }

 private:
  std::unique_ptr<const StopList> list_;  // on the heap: the rules point to it, and StopItems moves
  std::uint64_t min_chunk_length_ = 0;
};

// By local chunk id: 1 for a stop chunk (stop list or shorter than the minimum length), which
// detection leaves out of a page's chunks.
std::vector<std::uint8_t> stop_flags(const LocalTally& chunks, const LabelRules& rules);

}  // namespace crd::discover
