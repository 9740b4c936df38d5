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

struct DigestHasher {
  std::size_t operator()(const Digest& d) const noexcept {
    std::uint64_t v;
    std::memcpy(&v, d.bytes.data() + 8, sizeof v);  // bytes 8..15: independent of the routing bits
    return static_cast<std::size_t>(v);
  }
};

}  // namespace crd
