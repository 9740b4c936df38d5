// release_free_memory gives the heap's free pages back: 20,000 8 KB blocks freed between small
// blocks that stay are free chunks the heap cannot shrink past, and the resident set drops by at
// least 50 MB of their 160 once it is called (each freed block's whole pages: 75 MB here). The
// first version tested __GLIBC__ before any libc header had defined it, and did nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "crd/base/release_free_memory.hpp"

namespace crd {
namespace {

long resident_kib() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return -1;
  long size = 0, resident = 0;
  const int got = std::fscanf(f, "%ld %ld", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * 4 : -1;
}

TEST(ReleaseFreeMemory, FreedChunksBetweenLiveOnesLeaveTheResidentSet) {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "malloc_trim is glibc's malloc's (the sanitizers bring their own)";
#endif
  if (resident_kib() < 0) GTEST_SKIP() << "no /proc/self/statm";
  std::vector<char*> stay, freed;
  for (int i = 0; i < 20000; ++i) {
    freed.push_back(static_cast<char*>(std::malloc(8000)));
    std::memset(freed.back(), 1, 8000);
    stay.push_back(static_cast<char*>(std::malloc(100)));
    std::memset(stay.back(), 1, 100);
  }
  for (char* p : freed) std::free(p);
  const long before = resident_kib();
  release_free_memory();
  const long after = resident_kib();
  EXPECT_LT(after, before - 50 * 1024) << "resident " << before << " KiB before, " << after << " after";
  for (char* p : stay) std::free(p);
}

}  // namespace
}  // namespace crd
