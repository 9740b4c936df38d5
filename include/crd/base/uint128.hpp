// A 128-bit unsigned integer (GCC/Clang extension), named once so -Wpedantic stays quiet.
#pragma once

#include <cstdint>

namespace crd {

__extension__ typedef unsigned __int128 uint128;

// Maps a uniformly distributed 64-bit value onto [0, nranks) by multiply-shift: the high 64 bits
// of h * nranks. A fixed function of h and nranks, so every rank computes the same owner.
inline int scale_to_rank(std::uint64_t h, int nranks) noexcept {
  return static_cast<int>((static_cast<uint128>(h) * static_cast<unsigned>(nranks)) >> 64);
}

}  // namespace crd
