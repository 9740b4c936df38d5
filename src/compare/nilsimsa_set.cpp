// The labeled set's Nilsimsa digests and the best score against them (nilsimsa_set.hpp).
#include "nilsimsa_set.hpp"

#include <algorithm>
#include <cstring>

#include "popcount_kernels.hpp"

namespace crd::compare {
namespace {

// The fewest bits in which the query differs from any of the n digests (257 when n = 0).
inline int fewest_differing_loop(const std::uint64_t* q, const std::uint64_t* planes, std::size_t n) {
  const std::uint64_t *w0 = planes, *w1 = planes + n, *w2 = planes + 2 * n, *w3 = planes + 3 * n;
  int fewest = 257;
  for (std::size_t i = 0; i < n; ++i) {
    const int differing = __builtin_popcountll(q[0] ^ w0[i]) + __builtin_popcountll(q[1] ^ w1[i]) +
                          __builtin_popcountll(q[2] ^ w2[i]) + __builtin_popcountll(q[3] ^ w3[i]);
    fewest = std::min(fewest, differing);
  }
  return fewest;
}

CRD_POPCNT_CLONES
int fewest_differing_popcnt(const std::uint64_t* q, const std::uint64_t* planes, std::size_t n) {
  return fewest_differing_loop(q, planes, n);
}
// Not cloned, so its address is a plain function's (GCC 12 warns on taking a clone's).
int fewest_differing_portable(const std::uint64_t* q, const std::uint64_t* planes, std::size_t n) {
  return fewest_differing_popcnt(q, planes, n);
}

#if CRD_HAVE_VECTOR_POPCOUNT
CRD_VECTOR_POPCOUNT_KERNEL
int fewest_differing_vector(const std::uint64_t* q, const std::uint64_t* planes, std::size_t n) {
  return fewest_differing_loop(q, planes, n);
}
#endif

}  // namespace

NilsimsaSet::NilsimsaSet(const std::vector<NilsimsaDigest>& digests, bool use_vector_kernel)
    : planes_(4 * digests.size()), size_(digests.size()), fewest_differing_(&fewest_differing_portable) {
  for (std::size_t i = 0; i < size_; ++i) {
    std::uint64_t w[4];
    std::memcpy(w, digests[i].data(), 32);
    for (std::size_t k = 0; k < 4; ++k) planes_[k * size_ + i] = w[k];
  }
#if CRD_HAVE_VECTOR_POPCOUNT
  if (use_vector_kernel && has_vector_popcount()) fewest_differing_ = &fewest_differing_vector;
#else
  (void)use_vector_kernel;
#endif
}

int NilsimsaSet::best(const NilsimsaDigest& d) const {
  if (size_ == 0) return -129;
  std::uint64_t q[4];
  std::memcpy(q, d.data(), 32);
  return 128 - fewest_differing_(q, planes_.data(), size_);
}

std::uint64_t NilsimsaSet::memory_bytes() const { return planes_.capacity() * sizeof(std::uint64_t); }

}  // namespace crd::compare
