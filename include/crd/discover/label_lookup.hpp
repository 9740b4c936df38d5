// The label hashes of one or more result files in one flat map, for the single-process commands
// (check, compare): 20 bytes per label; a label's other columns are read only when it matched.
// Loaded by pipeline::load_label_lookup; read by compare's sentences and crd check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/discover/digest_map.hpp"

namespace crd::discover {

// Where a label was read: the file, its labeled group, and the row in that group.
struct LabelSource {
  std::string path;
  std::string group;
  std::uint64_t row;
};

struct LabelLookup {
  std::vector<LabelSource> sources;
  DigestMap<std::uint32_t> index;  // hash → position in sources

  const LabelSource* find(const Digest& d) const {
    const std::uint32_t* id = index.find(d);
    return id == nullptr ? nullptr : &sources[*id];
  }
};

}  // namespace crd::discover
