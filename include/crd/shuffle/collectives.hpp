// Typed broadcast, gathers and scatter (after KaMPIng's typed calls): a value travels encoded from its
// field list (fields.hpp), so no caller writes or reads a byte layout. The transport below moves
// bytes only. Collective: every rank must call, in the same order.
#pragma once

#include <cstddef>
#include <numeric>
#include <span>
#include <stdexcept>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/base/byte_codec.hpp"
#include "crd/base/fields.hpp"

namespace crd::shuffle {

// One allocation: sized with SizeCounter, written in place.
template <class T>
std::vector<std::byte> encode(const T& value) {
  std::vector<std::byte> out(encoded_size(value));
  SpanWriter w(out.data());
  write_value(w, value);
  return out;
}

template <class T>
T decode(std::span<const std::byte> bytes) {
  T value{};
  ByteReader r(bytes);
  read_value(r, value);
  if (!r.done()) throw std::runtime_error("shuffle::decode: bytes left over after the value");
  return value;
}

namespace detail {
template <class T>
std::vector<T> decode_each(const std::vector<std::byte>& all, const std::vector<std::uint64_t>& counts) {
  std::vector<T> out;
  out.reserve(counts.size());
  std::size_t at = 0;
  for (const std::uint64_t n : counts) {
    out.push_back(decode<T>(std::span<const std::byte>(all).subspan(at, n)));
    at += n;
  }
  return out;
}
}  // namespace detail

// Rank 0's value on every rank; the other ranks' argument is ignored.
template <class T>
T broadcast_from_rank0(comm::Transport& transport, const T& value) {
  const std::vector<std::byte> mine = transport.rank() == 0 ? encode(value) : std::vector<std::byte>{};
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  transport.allgatherv(mine, all, counts);
  return decode<T>(all);
}

// Every rank's value, by rank, on every rank.
template <class T>
std::vector<T> allgather(comm::Transport& transport, const T& value) {
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  transport.allgatherv(encode(value), all, counts);
  return detail::decode_each<T>(all, counts);
}

// Every rank's value, by rank, on rank 0; empty on the other ranks.
template <class T>
std::vector<T> gather_to_rank0(comm::Transport& transport, const T& value) {
  std::vector<std::uint64_t> to_each(static_cast<std::size_t>(transport.size()), 0);
  std::vector<std::byte> mine = encode(value);
  to_each[0] = mine.size();
  std::vector<std::byte> all;
  std::vector<std::uint64_t> counts;
  transport.alltoallv(mine, to_each, all, counts);
  if (transport.rank() != 0) return {};
  return detail::decode_each<T>(all, counts);
}

// Rank 0's values[r] on rank r (values[0] stays on rank 0 without passing the codec); the other
// ranks' argument is ignored. Rank 0 passes one value per rank.
template <class T>
T scatter_from_rank0(comm::Transport& transport, std::vector<T> values) {
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
  return decode<T>(got);
}

// values[r] goes to rank r (values[rank] stays here without passing the codec); returns, by source
// rank, the value each rank sent here. Every rank passes one value per rank.
template <class T>
std::vector<T> alltoall_values(comm::Transport& transport, std::vector<T> values) {
  const auto n = static_cast<std::size_t>(transport.size());
  const auto me = static_cast<std::size_t>(transport.rank());
  if (values.size() != n) throw std::invalid_argument("alltoall_values: one value per rank");
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
      from[s] = decode<T>(std::span<const std::byte>(got).subspan(at, counts[s]));
    }
    at += counts[s];
  }
  return from;
}

}  // namespace crd::shuffle
