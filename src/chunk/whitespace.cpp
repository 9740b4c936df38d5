// Portable whitespace normalization (byte and word at a time) and the kernel dispatch.
#include "whitespace.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "crd/chunk/chunker.hpp"

namespace crd::chunk::detail {

namespace {

// Continues a normalization whose previous byte was whitespace iff `prev_space`.
std::size_t normalize_tail(const unsigned char* in, std::size_t n, char* out, bool prev_space) noexcept {
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

// Nonzero iff some byte of x is below 0x21; every ASCII whitespace byte is, so a zero answer
// lets a whole word through untouched (the common case inside text and tags).
inline std::uint64_t has_byte_below_0x21(std::uint64_t x) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  return (x - kOnes * 0x21) & ~x & kHigh;
}

}  // namespace

std::size_t normalize_bytewise(const char* in, std::size_t n, char* out) noexcept {
  return normalize_tail(reinterpret_cast<const unsigned char*>(in), n, out, true);
}

std::size_t normalize_swar(const char* in, std::size_t n, char* out) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(in);
  char* o = out;
  bool prev_space = true;  // leading whitespace is dropped
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (has_byte_below_0x21(w) == 0) {
      std::memcpy(o, &w, 8);
      o += 8;
      prev_space = false;
      continue;
    }
    for (std::size_t k = 0; k < 8; ++k) {
      const unsigned char c = p[i + k];
      if (is_ascii_space(c)) {
        if (!prev_space) *o++ = ' ';
        prev_space = true;
      } else {
        *o++ = static_cast<char>(c);
        prev_space = false;
      }
    }
  }
  o += normalize_tail(p + i, n - i, o, prev_space);
  return static_cast<std::size_t>(o - out);
}

std::size_t normalize_run(const char* in, std::size_t n, char* out) noexcept {
  // Chosen once: the CPU does not change under a running process.
  static const NormalizeFn kernel = [] {
    NormalizeFn avx2 = normalize_avx2_kernel();
    return avx2 != nullptr ? avx2 : &normalize_swar;
  }();
  return kernel(in, n, out);
}

}  // namespace crd::chunk::detail

namespace crd::chunk {

void normalize_whitespace(std::string_view in, std::string& out) {
  out.resize(in.size() + detail::kNormalizeSlack);
  std::size_t len = detail::normalize_run(in.data(), in.size(), out.data());
  if (len > 0 && out[len - 1] == ' ') --len;
  out.resize(len);
}

}  // namespace crd::chunk
