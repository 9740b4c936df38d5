// A list of pages by URL key (one per line; blank lines and lines starting with '#' skipped), as
// crd report exports the pages a reviewer marked benign: `crd quilts --exclude-pages FILE`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crd::pipeline {

class PageList {
 public:
  PageList() = default;
  // Reads `path`, a regular file (a FIFO or device is refused rather than waited on) of at most
  // kMaxListFileBytes; throws UsageError naming the file when it cannot be read or is larger.
  // An entry is a page key ("host/path", as crd writes them) or a URL ("http://Host/path", keyed
  // as crd keys page URLs); spaces around it are dropped, and a key's host is matched in lower
  // case too (URL hosts are lowercased in keys).
  static PageList load(const std::string& path);
  // Whether `key` is listed; the entries it matched are added to `matched` (their line order).
  bool contains(std::string_view key, std::vector<std::uint32_t>* matched = nullptr) const;
  std::size_t entries() const { return entries_; }
  // What the list holds in memory, for --memory (every rank holds it).
  std::uint64_t held_bytes() const;

 private:
  struct Key {
    std::string key;
    std::uint32_t entry;  // the entry (non-blank, non-comment line) it came from, in file order
  };
  std::vector<Key> keys_;  // sorted by key
  std::size_t entries_ = 0;
};

}  // namespace crd::pipeline
