// The combined page rule (--chunker winnow+scan; docs/winnow.md, "Deletions: the combined mode").
// A page's exact chunks and its winnowed grams are two pieces of evidence: the grams survive edits
// inside a paragraph, the exact chunks survive the loss of whole paragraphs (a page cut down to a
// few copied paragraphs keeps too few grams for the binomial test, but each of its paragraphs is
// still a labeled chunk). Each part is tested by the binomial rule on its own counts, at the page
// rule's chance rate R and level α; the page is flagged when either part is (PageRule, built with
// combined = true, the one page rule of detect, check and compare-hashing). An unrelated page is
// then flagged with probability at most 2α (union bound; it holds whatever the dependence of the
// parts), the level the result states.
#pragma once

#include <cstdint>
#include <span>

#include "crd/detect/page_rule.hpp"
#include "crd/detect/page_scores.hpp"

namespace crd::detect {

// Fills scores.exact_chunks and scores.exact_labeled (parallel to the scored pages): how many of
// each page's chunks left after stop removal, and of its labeled chunks, are exact chunks; and
// scores.match_exact, whether each match is one.
// is_exact, by chunk id: 1 for an exact chunk, 0 for a gram. The arguments are score_pages'; the
// out-of-core markers (kOtherPass…) have no kind and are refused (logic_error).
void score_exact_part(PageScores& scores, std::span<const std::uint64_t> page_offsets,
                      std::span<const std::uint32_t> chunk_ids, std::span<const std::uint64_t> label_of,
                      std::span<const std::uint8_t> is_stop, std::span<const std::uint8_t> is_exact);

// Scored page i's counts for PageRule::judge, with its exact part when score_exact_part filled it.
PageCounts page_counts(const PageScores& scores, std::size_t i);

// The false-positive level the combined rule states for an unrelated page: its parts' levels summed.
inline double combined_level(double alpha) { return 2 * alpha; }

}  // namespace crd::detect
