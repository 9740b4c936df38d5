// score_pages: one pass over the pages' chunk vectors.
#include "crd/detect/page_scores.hpp"

namespace crd::detect {

PageScores score_pages(std::span<const std::uint64_t> page_offsets, std::span<const std::uint32_t> chunk_ids,
                       std::span<const std::uint64_t> label_of, std::span<const std::uint8_t> is_stop) {
  PageScores out;
  for (std::size_t p = 0; p + 1 < page_offsets.size(); ++p) {
    std::uint32_t chunks = 0;
    std::uint32_t labeled = 0;
    for (std::uint64_t i = page_offsets[p]; i < page_offsets[p + 1]; ++i) {
      const std::uint32_t id = chunk_ids[i];
      if (is_stop[id] != 0) continue;
      if (label_of[id] != kNoLabel) {
        out.positions.push_back(chunks);
        out.label_ids.push_back(static_cast<std::uint32_t>(label_of[id]));
        ++labeled;
      }
      ++chunks;
    }
    if (chunks == 0) continue;
    out.page.push_back(static_cast<std::uint32_t>(p));
    out.chunks.push_back(chunks);
    out.labeled.push_back(labeled);
    out.containment.push_back(containment(labeled, chunks));
    out.match_offsets.push_back(out.positions.size());
  }
  return out;
}

}  // namespace crd::detect
