// alltoall: values[r] from every rank to rank r (after KaMPIng's alltoall). Collective: every
// rank must call, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "crd/base/value_bytes.hpp"
#include "crd/comm/transport.hpp"

namespace crd::comm {

// values[r] goes to rank r (values[rank] stays here without passing the codec); returns, by source
// rank, the value each rank sent here. Every rank passes one value per rank.
template <class T>
std::vector<T> alltoall(Transport& transport, std::vector<T> values) {
  const auto n = static_cast<std::size_t>(transport.size());
  const auto me = static_cast<std::size_t>(transport.rank());
  if (values.size() != n) throw std::invalid_argument("alltoall: one value per rank");
  std::vector<std::uint64_t> to_each(n, 0);
  for (std::size_t r = 0; r < n; ++r)
    if (r != me) to_each[r] = encoded_size(values[r]);
  std::vector<std::byte> send(std::accumulate(to_each.begin(), to_each.end(), std::size_t{0}));
  SpanWriter w(send.data());  // each value written in place, in rank order
  for (std::size_t r = 0; r < n; ++r)
    if (r != me) write_value(w, values[r]);
  std::vector<std::byte> got;
  std::vector<std::uint64_t> counts;
  transport.alltoallv(send, to_each, got, counts);
  std::vector<T> from(n);
  std::size_t at = 0;
  for (std::size_t s = 0; s < n; ++s) {
    if (s == me) {
      from[s] = std::move(values[me]);
    } else {
      from[s] = decode_value<T>(std::span<const std::byte>(got).subspan(at, counts[s]));
    }
    at += counts[s];
  }
  return from;
}

}  // namespace crd::comm
