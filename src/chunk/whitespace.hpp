// Whitespace normalization kernels (internal): collapse ASCII whitespace runs, drop leading space.
#pragma once

#include <cstddef>

namespace crd::chunk::detail {

// Output may be written up to this many bytes past the normalized length (vector stores), so
// `out` must have room for n + kNormalizeSlack bytes.
inline constexpr std::size_t kNormalizeSlack = 32;

// Writes `in[0, n)` to `out` with every run of ASCII whitespace (9, 10, 12, 13, 32) turned into
// one space and leading whitespace removed; returns the number of bytes written. At most one
// trailing space remains: the caller trims it. Picks the fastest kernel the CPU supports.
std::size_t normalize_run(const char* in, std::size_t n, char* out) noexcept;

// The kernels behind normalize_run, exposed so tests can check each against the others.
std::size_t normalize_bytewise(const char* in, std::size_t n, char* out) noexcept;
std::size_t normalize_swar(const char* in, std::size_t n, char* out) noexcept;
// nullptr when the build or the CPU has no AVX2.
using NormalizeFn = std::size_t (*)(const char*, std::size_t, char*) noexcept;
NormalizeFn normalize_avx2_kernel() noexcept;

inline bool is_ascii_space(unsigned char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

}  // namespace crd::chunk::detail
