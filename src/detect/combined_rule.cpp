// The combined page rule: each part's counts, and the flag of either part.
#include "crd/detect/combined_rule.hpp"

#include <algorithm>
#include <stdexcept>

#include "crd/base/chunk_ids.hpp"

namespace crd::detect {

void score_exact_part(PageScores& scores, std::span<const std::uint64_t> page_offsets,
                      std::span<const std::uint32_t> chunk_ids, std::span<const std::uint64_t> label_of,
                      std::span<const std::uint8_t> is_stop, std::span<const std::uint8_t> is_exact) {
  scores.exact_chunks.assign(scores.size(), 0);
  scores.exact_labeled.assign(scores.size(), 0);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const std::uint32_t p = scores.page[i];
    for (std::uint64_t at = page_offsets[p]; at < page_offsets[p + 1]; ++at) {
      const std::uint32_t id = chunk_ids[at];
      if (id >= kOtherPassStopChunk) throw std::logic_error("score_exact_part: a chunk of another pass has no kind");
      if (is_stop[id] != 0 || is_exact[id] == 0) continue;
      ++scores.exact_chunks[i];
      if (label_of[id] != kNoLabel) ++scores.exact_labeled[i];
    }
  }
}

bool combined_flagged(const PageScores& scores, std::size_t i, double rate, ChanceFloor& floor,
                      std::uint64_t min_labeled) {
  const std::uint32_t exact_chunks = scores.exact_chunks[i], exact_labeled = scores.exact_labeled[i];
  const std::uint32_t gram_chunks = scores.chunks[i] - exact_chunks, gram_labeled = scores.labeled[i] - exact_labeled;
  const auto part_flagged = [&](std::uint32_t labeled, std::uint32_t chunks) {
    if (chunks == 0) return false;
    return page_flagged(containment(labeled, chunks), labeled, rate,
                        std::max<std::uint64_t>(min_labeled, floor.min_labeled(chunks)));
  };
  return part_flagged(exact_labeled, exact_chunks) || part_flagged(gram_labeled, gram_chunks);
}

}  // namespace crd::detect
