// Portable whitespace normalization (byte and word at a time) and the kernel dispatch.
#include "whitespace.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "crd/chunk/chunker.hpp"

namespace crd::chunk::detail {

namespace {

struct SpaceTable {
  unsigned char is_space[256] = {};
  constexpr SpaceTable() {
    for (unsigned char c : {' ', '\t', '\n', '\f', '\r'}) is_space[c] = 1;
  }
};
constexpr SpaceTable kSpaceTable;

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;

// 0x80 in every byte of x equal to c, 0 elsewhere; exact (no borrow between bytes).
inline std::uint64_t bytes_equal(std::uint64_t x, unsigned char c) noexcept {
  const std::uint64_t y = x ^ (kOnes * c);
  return ~(((y & kLow7) + kLow7) | y | kLow7);
}

// 0x80 in every byte of x that is ASCII whitespace.
inline std::uint64_t space_bytes(std::uint64_t x) noexcept {
  return bytes_equal(x, ' ') | bytes_equal(x, '\t') | bytes_equal(x, '\n') | bytes_equal(x, '\f') |
         bytes_equal(x, '\r');
}

}  // namespace

std::size_t normalize_bytewise(const char* in, std::size_t n, char* out) noexcept {
  return normalize_tail(reinterpret_cast<const unsigned char*>(in), n, out, true);
}

std::size_t normalize_swar(const char* in, std::size_t n, char* out) noexcept {
  // The word tricks below read byte k of a loaded word at bits 8k..8k+7.
  if constexpr (std::endian::native != std::endian::little) return normalize_bytewise(in, n, out);
  const auto* p = reinterpret_cast<const unsigned char*>(in);
  char* o = out;
  bool prev_space = true;  // leading whitespace is dropped
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    const std::uint64_t ws = space_bytes(w);  // little-endian: byte k of the word is p[i + k]
    // A whitespace byte goes when the byte before it (in this word, or the last of the previous
    // word) was whitespace too. Without such a byte the word is copied with spaces swapped in.
    const std::uint64_t drop = ws & ((ws << 8) | (prev_space ? 0x80ULL : 0ULL));
    if (drop == 0) {
      const std::uint64_t full = (ws >> 7) * 0xff;
      const std::uint64_t out_word = (w & ~full) | (full & (kOnes * ' '));
      std::memcpy(o, &out_word, 8);
      o += 8;
      prev_space = (ws >> 63) != 0;
      continue;
    }
    // A run of whitespace: eight branch-free steps. Every byte is stored (as ' ' if
    // whitespace) and the output only advances past it unless it continues a run; HTML has a
    // space every few bytes, so branching per byte would mispredict often.
    unsigned prev = prev_space ? 1U : 0U;
    for (std::size_t k = 0; k < 8; ++k) {
      const unsigned char c = p[i + k];
      const unsigned is_ws = kSpaceTable.is_space[c];
      *o = is_ws != 0U ? ' ' : static_cast<char>(c);
      o += 1U - (is_ws & prev);
      prev = is_ws;
    }
    prev_space = prev != 0U;
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
