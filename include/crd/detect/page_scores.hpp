// Page containment (paper §4.1 step 5): labeled chunks / chunks after stop-chunk removal, with
// the positions of the labeled chunks in the page and their label ids (the overlap distribution).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace crd::detect {

inline constexpr std::uint64_t kNoLabel = ~std::uint64_t{0};

struct PageScores {
  // Only pages with at least one chunk after stop removal; `page` is the local page index.
  std::vector<std::uint32_t> page;
  std::vector<std::uint32_t> chunks;
  std::vector<std::uint32_t> labeled;
  std::vector<double> containment;
  // Page i's matches are positions/label_ids[match_offsets[i] … match_offsets[i+1]); a position is
  // the chunk's index among the page's chunks that remain after stop-chunk removal.
  std::vector<std::uint64_t> match_offsets{0};
  std::vector<std::uint32_t> positions;
  std::vector<std::uint32_t> label_ids;
  // --chunker winnow+scan only (combined_rule.hpp), else empty: how many of each page's chunks and
  // labeled chunks are exact chunks; the rest are grams.
  std::vector<std::uint32_t> exact_chunks;
  std::vector<std::uint32_t> exact_labeled;
  // Pages with chunks of which every one is a stop chunk (--min-chunk-length, --stop-chunks): left
  // out of `page` like pages without chunks, but only these are counted here, since a page the
  // chunker emitted nothing for is already counted by its skip reason (detect writes this as the
  // counter detect.pages.only_stop_chunks).
  std::uint64_t only_stop_pages = 0;
  // --chunker winnow+scan only, else empty: parallel to positions, 1 when the match is an exact chunk.
  std::vector<std::uint8_t> match_exact;

  std::size_t size() const { return page.size(); }
};

// The counter of PageScores::only_stop_pages in /run/counters.
inline constexpr const char* kOnlyStopPagesCounter = "detect.pages.only_stop_chunks";

// Containment (paper §4.3): labeled / chunks, both counted after stop-chunk removal (0 for a page
// without chunks). Whether a page is flagged is the page rule's (page_rule.hpp).
inline double containment(std::uint64_t labeled, std::uint64_t chunks) {
  return chunks == 0 ? 0.0 : static_cast<double>(labeled) / static_cast<double>(chunks);
}

// page_offsets (n + 1) and chunk_ids: each page's chunk ids in page order. label_of and is_stop are
// indexed by chunk id: its label id (or kNoLabel), and whether it is a stop chunk. A chunk id may be
// one of the kOtherPass… markers (crd/base/chunk_ids.hpp): counted (unless a stop chunk), never labeled.
PageScores score_pages(std::span<const std::uint64_t> page_offsets, std::span<const std::uint32_t> chunk_ids,
                       std::span<const std::uint64_t> label_of, std::span<const std::uint8_t> is_stop);

// Out-of-core counting: adds one pass's scores into `into`, the sum of the earlier passes' (the
// same pages and page vectors, other chunks tallied); the matches of the passes are disjoint and merge by position.
void add_pass_scores(PageScores& into, const PageScores& pass);

}  // namespace crd::detect
