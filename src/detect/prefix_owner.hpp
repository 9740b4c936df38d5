// The owner rank of a neighborhood prefix: FNV-1a of its bytes, multiply-shifted onto the ranks.
// A fixed function of the text and the rank count, so every rank agrees without talking.
#pragma once

#include <cstdint>
#include <string_view>

#include "crd/base/uint128.hpp"

namespace crd::detect {

inline int prefix_owner(std::string_view prefix, int nranks) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : prefix) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  h ^= h >> 33;  // FNV's high bits mix poorly; fold before taking them
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return scale_to_rank(h, nranks);
}

}  // namespace crd::detect
