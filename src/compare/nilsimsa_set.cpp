// The labeled set's Nilsimsa digests and the best score against them (nilsimsa_set.hpp).
#include "nilsimsa_set.hpp"

#include <algorithm>
#include <cstring>

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

// The x86-64 baseline has no popcount instruction (GCC calls a library routine, 3× slower here);
// target_clones builds a POPCNT copy too and picks it at load time where the CPU has one.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("popcnt", "default")))
#endif
int fewest_differing_popcnt(const std::uint64_t* q, const std::uint64_t* planes, std::size_t n) {
  return fewest_differing_loop(q, planes, n);
}
// Not cloned, so its address is a plain function's (GCC 12 warns on taking a clone's).
int fewest_differing_portable(const std::uint64_t* q, const std::uint64_t* planes, std::size_t n) {
  return fewest_differing_popcnt(q, planes, n);
}

// With AVX-512's vector popcount GCC runs the loop eight digests at a time (4–7× faster on this
// machine's CPUs, perf/RESULTS.md). GCC 12's target_clones cannot name that extension, so the
// kernel is picked at run time from the CPU's flags, as the chunker's AVX2 kernels are.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target("avx512f,avx512vpopcntdq"), optimize("O3")))
int fewest_differing_avx512(const std::uint64_t* q, const std::uint64_t* planes, std::size_t n) {
  return fewest_differing_loop(q, planes, n);
}

NilsimsaSet::Kernel vector_kernel() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512vpopcntdq") ? &fewest_differing_avx512 : nullptr;
}
#else
NilsimsaSet::Kernel vector_kernel() { return nullptr; }
#endif

}  // namespace

NilsimsaSet::NilsimsaSet(const std::vector<NilsimsaDigest>& digests, bool use_vector_kernel)
    : planes_(4 * digests.size()), size_(digests.size()), fewest_differing_(&fewest_differing_portable) {
  for (std::size_t i = 0; i < size_; ++i) {
    std::uint64_t w[4];
    std::memcpy(w, digests[i].data(), 32);
    for (std::size_t k = 0; k < 4; ++k) planes_[k * size_ + i] = w[k];
  }
  if (use_vector_kernel)
    if (const Kernel k = vector_kernel()) fewest_differing_ = k;
}

int NilsimsaSet::best(const NilsimsaDigest& d) const {
  if (size_ == 0) return -129;
  std::uint64_t q[4];
  std::memcpy(q, d.data(), 32);
  return 128 - fewest_differing_(q, planes_.data(), size_);
}

std::uint64_t NilsimsaSet::memory_bytes() const { return planes_.capacity() * sizeof(std::uint64_t); }

}  // namespace crd::compare
