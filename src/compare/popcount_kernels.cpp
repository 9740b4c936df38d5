// The CPU check for the vector popcount kernels (popcount_kernels.hpp).
#include "popcount_kernels.hpp"

namespace crd::compare {

bool has_vector_popcount() {
#if CRD_HAVE_VECTOR_POPCOUNT
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512vpopcntdq");
#else
  return false;
#endif
}

}  // namespace crd::compare
