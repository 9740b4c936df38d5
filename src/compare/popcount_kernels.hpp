// How the comparison's popcount loops are built for the CPU they run on. The x86-64 baseline has
// no popcount instruction (GCC calls a library routine, 3× slower here): CRD_POPCNT_CLONES builds
// a POPCNT copy too, picked at load time. With AVX-512's vector popcount GCC runs such a loop
// eight 64-bit words at a time; GCC 12's target_clones cannot name that extension, so those
// kernels (CRD_VECTOR_POPCOUNT_KERNEL) are picked at run time by has_vector_popcount(), as the
// chunker's AVX2 kernels are. Results are the same either way: exact integer arithmetic.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CRD_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#define CRD_HAVE_VECTOR_POPCOUNT 1
#define CRD_VECTOR_POPCOUNT_KERNEL __attribute__((target("avx512f,avx512vpopcntdq"), optimize("O3")))
#else
#define CRD_POPCNT_CLONES
#define CRD_HAVE_VECTOR_POPCOUNT 0
#endif

namespace crd::compare {

// Whether this CPU runs CRD_VECTOR_POPCOUNT_KERNEL functions (false where they are not built).
bool has_vector_popcount();

}  // namespace crd::compare
