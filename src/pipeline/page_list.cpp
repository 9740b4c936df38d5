// PageList: a sorted vector searched by bisection; a list is a reviewer's marks, thousands of
// lines at most, so one copy per rank costs nothing worth sharing.
#include "page_list.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include "crd/base/error.hpp"

namespace crd::pipeline {

PageList PageList::load(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw UsageError("cannot read page list '" + path + "'");
  if (!S_ISREG(st.st_mode)) throw UsageError("page list '" + path + "' is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read page list '" + path + "'");
  PageList list;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    list.keys_.push_back(line);
  }
  if (in.bad()) throw UsageError("cannot read page list '" + path + "'");
  std::sort(list.keys_.begin(), list.keys_.end());
  list.keys_.erase(std::unique(list.keys_.begin(), list.keys_.end()), list.keys_.end());
  return list;
}

bool PageList::contains(std::string_view key) const {
  return std::binary_search(keys_.begin(), keys_.end(), key, std::less<>{});
}

}  // namespace crd::pipeline
