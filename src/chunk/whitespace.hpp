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

// One byte at a time: writes `in[0, n)` normalized to `out`, continuing a normalization whose
// previous byte was whitespace iff `prev_space`; returns the number of bytes written. The scalar
// tail of the word and vector kernels.
inline std::size_t normalize_tail(const unsigned char* in, std::size_t n, char* out, bool prev_space) noexcept {
  char* o = out;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = in[i];
    if (is_ascii_space(c)) {
      if (!prev_space) *o++ = ' ';
      prev_space = true;
    } else {
      *o++ = static_cast<char>(c);
      prev_space = false;
    }
  }
  return static_cast<std::size_t>(o - out);
}

}  // namespace crd::chunk::detail
