// A labeled set's Nilsimsa digests, laid out for the best score against all of them: every chunk
// is compared with every label, so this is the comparison's longest loop after TLSH's index.
#pragma once

#include <cstdint>
#include <vector>

#include "nilsimsa.hpp"

namespace crd::compare {

class NilsimsaSet {
 public:
  // vector_kernel = false keeps to the portable loop (tests compare the two).
  explicit NilsimsaSet(const std::vector<NilsimsaDigest>& digests, bool vector_kernel = true);
  std::size_t size() const { return size_; }
  // The highest nilsimsa_compare of d against any digest of the set (−129 when it is empty).
  int best(const NilsimsaDigest& d) const;
  // Bytes held (for --memory).
  std::uint64_t memory_bytes() const;

  using Kernel = int (*)(const std::uint64_t* query, const std::uint64_t* planes, std::size_t n);

 private:
  // The digests as four planes of 64-bit words (word k of digest i at planes_[k·n + i]), so the
  // loop over digests is a plain loop over arrays that compilers vectorize.
  std::vector<std::uint64_t> planes_;
  std::size_t size_ = 0;
  Kernel fewest_differing_;
};

}  // namespace crd::compare
