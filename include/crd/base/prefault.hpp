// prefault_writable / reserve_writable: map the pages of a fresh allocation writable in one system call.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace crd {

// A large buffer that is about to be filled page by page faults once per 4 KiB page (twice when
// the first touch is a read, which maps the shared zero page). MADV_POPULATE_WRITE maps the whole
// range in one call instead. Best effort: older kernels lack the flag, and buffers under 1 MiB are
// left to fault (the call would cost more than it saves).
inline void prefault_writable(void* p, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  constexpr std::size_t kPage = 4096;
  if (bytes < (std::size_t{1} << 20)) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kPage - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

// v.reserve(n), the new capacity mapped writable at once: for a large vector about to be filled.
template <class T>
void reserve_writable(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  prefault_writable(v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T));
}

}  // namespace crd
