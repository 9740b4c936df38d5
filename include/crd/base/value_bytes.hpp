// One value as one byte string and back, encoded from its field list (fields.hpp): what the typed
// collectives (comm/collectives/) send, so no caller writes or reads a byte layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "crd/base/byte_codec.hpp"
#include "crd/base/fields.hpp"

namespace crd {

// One allocation: sized with SizeCounter, written in place.
template <class T>
std::vector<std::byte> encode_value(const T& value) {
  std::vector<std::byte> out(encoded_size(value));
  SpanWriter w(out.data());
  write_value(w, value);
  return out;
}

// Throws std::runtime_error unless `bytes` are exactly one encoded T.
template <class T>
T decode_value(std::span<const std::byte> bytes) {
  T value{};
  ByteReader r(bytes);
  read_value(r, value);
  if (!r.done()) throw std::runtime_error("decode_value: bytes left over after the value");
  return value;
}

// Values of T lying back to back in `all`, counts[i] bytes each: one per rank of a gather.
template <class T>
std::vector<T> decode_each(std::span<const std::byte> all, std::span<const std::uint64_t> counts) {
  std::vector<T> out;
  out.reserve(counts.size());
  std::size_t at = 0;
  for (const std::uint64_t n : counts) {
    out.push_back(decode_value<T>(all.subspan(at, n)));
    at += n;
  }
  return out;
}

// Plain values lying back to back in `bytes`, copied out as they lie (no codec).
template <class T>
std::vector<T> copy_pods(std::span<const std::byte> bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

}  // namespace crd
