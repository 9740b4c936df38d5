// scatter_from_rank0: rank 0's values[r] on rank r (after KaMPIng's scatter). Collective: every
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

// Rank 0's values[r] on rank r (values[0] stays on rank 0 without passing the codec); the other
// ranks' argument is ignored. Rank 0 passes one value per rank.
template <class T>
T scatter_from_rank0(Transport& transport, std::vector<T> values) {
  const auto n = static_cast<std::size_t>(transport.size());
  std::vector<std::uint64_t> to_each(n, 0);
  std::vector<std::byte> send;
  if (transport.rank() == 0) {
    if (values.size() != n) throw std::invalid_argument("scatter_from_rank0: one value per rank");
    for (std::size_t r = 1; r < n; ++r) to_each[r] = encoded_size(values[r]);
    send.resize(std::accumulate(to_each.begin(), to_each.end(), std::size_t{0}));
    SpanWriter w(send.data());  // each value written in place, in rank order
    for (std::size_t r = 1; r < n; ++r) write_value(w, values[r]);
  }
  std::vector<std::byte> got;
  std::vector<std::uint64_t> counts;
  transport.alltoallv(send, to_each, got, counts);
  if (transport.rank() == 0) return std::move(values[0]);
  return decode_value<T>(got);
}

}  // namespace crd::comm
