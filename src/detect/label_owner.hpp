// Owner of a label id: the rank whose LabelSlice [first_id, next rank's first_id) holds it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace crd::detect {

// firsts: every rank's LabelSlice::first_id, ascending by rank (allgather_concat).
inline int owner_of_label(const std::vector<std::uint64_t>& firsts, std::uint64_t id) {
  const auto it = std::upper_bound(firsts.begin(), firsts.end(), id);
  return static_cast<int>(it - firsts.begin()) - 1;
}

}  // namespace crd::detect
