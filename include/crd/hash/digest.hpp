// Digest: a full 160-bit SHA-1 value, and the hex form used in files and messages.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "crd/base/uint128.hpp"

namespace crd {

// Hashes are never truncated: at web scale a shortened hash produces false matches
// (paper §4.5, §6.5), so every table, message and file carries all 20 bytes.
struct Digest {
  std::array<std::uint8_t, 20> bytes{};

  auto operator<=>(const Digest&) const = default;
  bool operator==(const Digest&) const = default;

  // The leading 64 bits, big-endian: uniformly distributed, used for routing and bucketing.
  std::uint64_t prefix64() const noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | bytes[static_cast<std::size_t>(i)];
    return v;
  }
};
static_assert(sizeof(Digest) == 20);

std::string to_hex(const Digest& d);
// Accepts exactly 40 hex digits (either case); nullopt otherwise.
std::optional<Digest> digest_from_hex(std::string_view hex);

// The owner rank of a hash: multiply-shift of the leading 64 bits onto [0, nranks).
// A fixed function of the hash and the rank count only, so every rank agrees without talking.
inline int owner_of(const Digest& d, int nranks) noexcept { return scale_to_rank(d.prefix64(), nranks); }

// Equality of two digests in three loads, inline: Digest's defaulted == compiles to a memcmp call,
// which the hot tables (discover/digest_map.hpp, digest_index.hpp) paid once per probed slot.
inline bool same_digest(const Digest& a, const Digest& b) noexcept {
  std::uint64_t a0, a1, b0, b1;
  std::uint32_t a2, b2;
  std::memcpy(&a0, a.bytes.data(), 8);
  std::memcpy(&b0, b.bytes.data(), 8);
  std::memcpy(&a1, a.bytes.data() + 8, 8);
  std::memcpy(&b1, b.bytes.data() + 8, 8);
  std::memcpy(&a2, a.bytes.data() + 16, 4);
  std::memcpy(&b2, b.bytes.data() + 16, 4);
  return ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2)) == 0;
}

struct DigestHasher {
  std::size_t operator()(const Digest& d) const noexcept {
    std::uint64_t v;
    std::memcpy(&v, d.bytes.data() + 8, sizeof v);  // bytes 8..15: independent of the routing bits
    return static_cast<std::size_t>(v);
  }
};

}  // namespace crd
