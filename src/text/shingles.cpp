// Shingle fingerprints (shingles.hpp) with the fixed functions of fingerprint.hpp.
#include "crd/text/shingles.hpp"

#include <algorithm>

#include "crd/text/fingerprint.hpp"

namespace crd::text {
namespace {

// Shingle i is mix64(… mix64(mix64(start ^ t[i]) ^ t[i + 1]) … ^ t[i + width − 1]). Taken a token
// position at a time for all shingles at once, the loop over i has no dependences and vectorizes
// like neardup's fold_min_values (8 shingles per 64-bit vector multiply); each shingle still sees
// the same operations in the same order, so the values are the same.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v4", "default"), optimize("O3")))
#endif
void shingle_hashes(const std::uint64_t* tokens, std::size_t count, std::size_t width, std::uint64_t start,
                    std::uint64_t* out) {
  for (std::size_t i = 0; i < count; ++i) out[i] = start;
  for (std::size_t j = 0; j < width; ++j)
    for (std::size_t i = 0; i < count; ++i) out[i] = mix64(out[i] ^ tokens[i + j]);
}

}  // namespace

void shingles(std::span<const std::uint64_t> tokens, std::uint32_t k, std::vector<std::uint64_t>& out) {
  out.clear();
  if (tokens.empty()) return;
  const std::size_t width = std::min<std::size_t>(k, tokens.size());
  out.resize(tokens.size() - width + 1);
  shingle_hashes(tokens.data(), out.size(), width, seed(Domain::Shingle, 0), out.data());
}

std::vector<std::uint64_t> shingles(std::span<const std::uint64_t> tokens, std::uint32_t k) {
  std::vector<std::uint64_t> out;
  shingles(tokens, k, out);
  return out;
}

}  // namespace crd::text
