// Stop-list loading.
#include "crd/discover/label_rules.hpp"

#include <fstream>

#include "crd/chunk/chunker.hpp"
#include "crd/core/error.hpp"
#include "crd/hash/sha1.hpp"

namespace crd::discover {

StopList StopList::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read stop list '" + path + "'");
  StopList list;
  std::string line;
  std::string normalized;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    if (auto d = digest_from_hex(line)) {
      list.add(*d);
      continue;
    }
    normalized.clear();
    chunk::normalize_whitespace(line, normalized);
    if (!normalized.empty()) list.add(sha1(normalized));
  }
  return list;
}

}  // namespace crd::discover
