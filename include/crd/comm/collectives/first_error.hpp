// first_error: one rank's error made every rank's, alike. Collective: every rank must call, in the
// same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "crd/comm/collectives/gathered.hpp"
#include "crd/comm/collectives/max.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

// The first non-empty `my_error` by rank, as "rank R: …", identical on every rank; "" if every
// rank passed "". How an error one rank met becomes one message all ranks throw alike.
inline std::string first_error(Transport& transport, std::string_view my_error) {
  // Errors are rare and agreed on after every write step (hundreds per job): one reduction says
  // whether any rank has one, and only then are the messages gathered (two more collectives).
  if (max(transport, std::uint64_t{my_error.size()}) == 0) return {};
  const detail::Gathered all =
      detail::allgather_bytes(transport, std::as_bytes(std::span<const char>(my_error.data(), my_error.size())));
  std::size_t at = 0;
  for (std::size_t r = 0; r < all.counts.size(); ++r) {
    if (all.counts[r] > 0)
      return "rank " + std::to_string(r) + ": " +
             std::string(reinterpret_cast<const char*>(all.bytes.data()) + at, all.counts[r]);
    at += all.counts[r];
  }
  return {};
}

}  // namespace crd::comm
