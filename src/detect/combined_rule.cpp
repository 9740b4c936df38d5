// The combined page rule: each part's counts (PageRule::judge tests them).
#include "crd/detect/combined_rule.hpp"

#include <stdexcept>

#include "crd/base/chunk_ids.hpp"

namespace crd::detect {

void score_exact_part(PageScores& scores, std::span<const std::uint64_t> page_offsets,
                      std::span<const std::uint32_t> chunk_ids, std::span<const std::uint64_t> label_of,
                      std::span<const std::uint8_t> is_stop, std::span<const std::uint8_t> is_exact) {
  scores.exact_chunks.assign(scores.size(), 0);
  scores.exact_labeled.assign(scores.size(), 0);
  scores.match_exact.clear();
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const std::uint32_t p = scores.page[i];
    for (std::uint64_t at = page_offsets[p]; at < page_offsets[p + 1]; ++at) {
      const std::uint32_t id = chunk_ids[at];
      if (id >= kOtherPassStopChunk) throw std::logic_error("score_exact_part: a chunk of another pass has no kind");
      if (is_stop[id] != 0) continue;
      // In score_pages' order: the page's labeled chunks, in page order.
      if (label_of[id] != kNoLabel) scores.match_exact.push_back(is_exact[id]);
      if (is_exact[id] == 0) continue;
      ++scores.exact_chunks[i];
      if (label_of[id] != kNoLabel) ++scores.exact_labeled[i];
    }
  }
}

PageCounts page_counts(const PageScores& scores, std::size_t i) {
  PageCounts c{scores.chunks[i], scores.labeled[i]};
  if (!scores.exact_chunks.empty()) {
    c.exact_chunks = scores.exact_chunks[i];
    c.exact_labeled = scores.exact_labeled[i];
  }
  return c;
}

}  // namespace crd::detect
