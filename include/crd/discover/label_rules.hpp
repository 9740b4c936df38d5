// Which hashes become labels: count over a threshold, minus stop items (paper §4.2, §4.4.2).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>

#include "crd/hash/digest.hpp"

namespace crd::discover {

// Stop chunks/files: known benign content (empty paragraph, reject-all robots.txt, …).
class StopList {
 public:
  // One entry per line: 40 hex digits = a SHA-1; any other line = a literal chunk, normalized
  // like chunks are and hashed. Blank lines and lines starting with '#' are skipped.
  // Throws UsageError if the file cannot be read.
  static StopList load(const std::string& path);
  void add(const Digest& d) { hashes_.insert(d); }
  bool contains(const Digest& d) const { return hashes_.count(d) != 0; }
  std::size_t size() const { return hashes_.size(); }

 private:
  std::unordered_set<Digest, DigestHasher> hashes_;
};

struct LabelRules {
  std::uint64_t threshold = 0;         // labeled when count > threshold
  std::uint64_t min_length = 0;        // shorter items are stop items
  const StopList* stop = nullptr;      // may be null

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

  LabelRules chunk_rules(std::uint64_t threshold = 0) const { return {threshold, min_chunk_length_, list_.get()}; }
  // Whole files are stop items only by the list: the minimum length is for chunks.
  LabelRules file_rules(std::uint64_t threshold) const { return {threshold, 0, list_.get()}; }

 private:
  std::unique_ptr<const StopList> list_;  // on the heap: the rules point to it, and StopItems moves
  std::uint64_t min_chunk_length_ = 0;
};

}  // namespace crd::discover
