// The similarity pair and overlap distribution: two hash sets, two bit vectors, one pass each.
#include "crd/detect/similarity.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace crd::detect {

double similarity_term(std::uint64_t matched, std::uint64_t size) noexcept {
  return size == 0 ? 0.0 : static_cast<double>(matched) / static_cast<double>(size);
}

namespace {

// B[i] = sentence i of `doc` is in `other`; returns the number of set bits.
std::uint64_t mark(std::span<const Digest> doc, const std::unordered_set<Digest, DigestHasher>& other,
                   std::vector<bool>& bits) {
  bits.assign(doc.size(), false);
  std::uint64_t set = 0;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (other.contains(doc[i])) {
      bits[i] = true;
      ++set;
    }
  }
  return set;
}

}  // namespace

Overlap overlap(std::span<const Digest> a, std::span<const Digest> b) {
  const std::unordered_set<Digest, DigestHasher> set_a(a.begin(), a.end());
  const std::unordered_set<Digest, DigestHasher> set_b(b.begin(), b.end());
  Overlap out;
  const std::uint64_t matched_a = mark(a, set_b, out.in_a);
  const std::uint64_t matched_b = mark(b, set_a, out.in_b);
  out.pair = {similarity_term(matched_a, a.size()), similarity_term(matched_b, b.size())};
  std::unordered_map<Digest, std::uint32_t, DigestHasher> first_in_b;
  for (std::size_t j = b.size(); j-- > 0;)
    if (out.in_b[j]) first_in_b[b[j]] = static_cast<std::uint32_t>(j);
  std::unordered_set<Digest, DigestHasher> seen;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!out.in_a[i] || !seen.insert(a[i]).second) continue;
    out.matching.push_back(static_cast<std::uint32_t>(i));
    out.matching_b.push_back(first_in_b.at(a[i]));
  }
  return out;
}

std::vector<std::uint32_t> overlap_distribution(const std::vector<bool>& bits, std::uint32_t k) {
  const std::size_t width = std::max<std::uint32_t>(k, 1);
  std::vector<std::uint32_t> out((bits.size() + width - 1) / width, 0);
  for (std::size_t i = 0; i < bits.size(); ++i) out[i / width] += bits[i] ? 1 : 0;
  return out;
}

}  // namespace crd::detect
