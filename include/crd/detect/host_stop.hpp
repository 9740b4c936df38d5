// Stop grams measured from the crawl (docs/winnow.md, "A chance rate measured from the crawl"): a
// labeled chunk that one host holds on more than N of its pages is that host's own boilerplate — a
// license header, a template line, a generated index's numbers — not evidence that a page copies
// the labeled site. A mirror of the labeled site repeats a chunk on at most as many of its pages as
// the site itself does, whatever the number of mirrors, so the count is per host, never summed over
// hosts (a chunk on many hosts also describes a site copied many times). The page rule does not
// count such chunks on any page (neither as chunks nor as labeled), as it does not count stop chunks.
// The limit is relative to the labeled site: a host's count is compared with max(N, C · count_L(g)),
// count_L(g) being how often the labeled corpus itself holds g (LabelSlice::counts) and C
// --host-stop-site-ratio. However often the site repeats its own text (a javadoc site's member
// boilerplate on hundreds of pages), its mirrors keep those grams; an unrelated host repeating a
// labeled phrase more often than the site does is still stopped.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/detect/detection.hpp"
#include "crd/detect/page_rule.hpp"
#include "crd/detect/page_scores.hpp"

namespace crd::detect {

// The label ids of grams that some host holds on more than max(max_host_pages, site_ratio · site)
// pages (the product saturates), site being the label's count in the labeled corpus (labels.counts;
// 0 where unknown; exact chunks of --chunker winnow+scan, scores.match_exact, are not counted),
// ascending, on every rank
// (none when max_host_pages is 0: the rule is off, and nothing is exchanged). A page's host is its
// key's first component (url_prefixes.hpp, depth 0). Counts travel as one reduce-by-key of
// (label, host) → pages to the label's owner (labels: this rank's slice, which holds the owned
// labels' counts); exact integers, so the result is the same for any rank count and input order.
// Collective.
std::vector<std::uint64_t> host_stop_labels(comm::Transport& transport, const std::vector<std::string>& keys,
                                            const PageScores& scores, const LabelSlice& labels,
                                            std::uint64_t max_host_pages, std::uint64_t site_ratio,
                                            std::size_t round_bytes);

// Scored page i's counts for PageRule::judge (page_counts) without the matches whose label is in
// stop (ascending): each such occurrence of a gram leaves chunks and labeled; exact chunks
// (scores.match_exact) are kept, so the combined rule's exact part is unchanged.
PageCounts page_counts_without(const PageScores& scores, std::size_t i, std::span<const std::uint64_t> stop);

}  // namespace crd::detect
