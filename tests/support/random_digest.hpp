// Uniformly random digests for the tests of the digest tables (the tables rely on digests being
// uniform: they index and tag with digest bits directly).
#pragma once

#include <cstdint>
#include <random>

#include "crd/hash/digest.hpp"

namespace crd::testing {

inline Digest random_digest(std::mt19937_64& rng) {
  Digest d;
  for (auto& b : d.bytes) b = static_cast<std::uint8_t>(rng());
  return d;
}

}  // namespace crd::testing
