// prefetch: a cache hint that the compiler keeps.
#pragma once

namespace crd {

// Starts loading the cache line holding `p`. A prefetch never faults, so any address will do (a
// hint for a table that is empty or gone is harmless). On x86-64 it is written in assembly:
// GCC 12 at -O2 deletes a __builtin_prefetch whose address comes from a load, or that sits
// behind a test (its dead-code pass; -fno-tree-dce keeps it), and so deleted the hash tables'
// prefetches without a word. The assembly has effects the compiler cannot see, so it stays.
inline void prefetch(const void* p) noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  asm volatile("prefetcht0 (%0)" : : "r"(p));
#else
  __builtin_prefetch(p);
#endif
}

}  // namespace crd
