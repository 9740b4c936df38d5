// What a string's characters take on the heap, for the --memory models (docs/memory.md).
#pragma once

#include <cstdint>
#include <string>

namespace crd {

// Nothing when the characters fit in the string itself (libstdc++'s 15-byte buffer), else its
// capacity and terminator as malloc rounds them: 16-byte granules with an 8-byte header.
inline std::uint64_t heap_bytes(const std::string& s) {
  constexpr std::size_t kInline = 15;
  return s.capacity() <= kInline ? 0 : (s.capacity() + 1 + 8 + 15) / 16 * 16;
}

}  // namespace crd
