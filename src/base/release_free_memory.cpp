#include "crd/base/release_free_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ on glibc: the test below needs a libc header first

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace crd {

void release_free_memory() {
#if defined(__GLIBC__)
  ::malloc_trim(0);
#endif
}

}  // namespace crd
