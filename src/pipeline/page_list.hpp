// A list of pages by URL key (one per line; blank lines and lines starting with '#' skipped), as
// crd report exports the pages a reviewer marked benign: `crd quilts --exclude-pages FILE`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace crd::pipeline {

class PageList {
 public:
  PageList() = default;
  // Reads `path`, a regular file (a FIFO or device is refused rather than waited on); throws
  // UsageError naming the file when it cannot be read.
  static PageList load(const std::string& path);
  bool contains(std::string_view key) const;
  std::size_t size() const { return keys_.size(); }

 private:
  std::vector<std::string> keys_;  // sorted, distinct
};

}  // namespace crd::pipeline
