// Bottom-k Jaccard samples and their estimate (see jaccard_sample.hpp).
#include "crd/neardup/jaccard_sample.hpp"

#include <algorithm>
#include <cmath>

#include "crd/text/fingerprint.hpp"

namespace crd::neardup {

std::vector<std::uint32_t> jaccard_sample(std::span<const std::uint64_t> shingles, std::uint32_t k) {
  const std::uint64_t salt = text::seed(text::Domain::Sample, 0);
  std::vector<std::uint32_t> values;
  values.reserve(shingles.size());
  for (const std::uint64_t s : shingles) values.push_back(static_cast<std::uint32_t>(text::mix64(s ^ salt) >> 32));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() > k) values.resize(k);
  values.shrink_to_fit();
  return values;
}

JaccardEstimate estimate_jaccard(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b, std::uint32_t k) {
  JaccardEstimate e;
  std::size_t i = 0, j = 0;
  while (e.used < k && (i < a.size() || j < b.size())) {
    if (j == b.size() || (i < a.size() && a[i] < b[j])) {
      ++i;
    } else if (i == a.size() || b[j] < a[i]) {
      ++j;
    } else {
      ++e.both;
      ++i;
      ++j;
    }
    ++e.used;
  }
  return e;
}

double jaccard_sd(double j, std::uint32_t k) { return std::sqrt(j * (1 - j) / k); }

}  // namespace crd::neardup
