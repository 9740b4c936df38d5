// Stop grams across hosts (docs/winnow.md, "Phrasing shared across hosts: stop grams across hosts"):
// a labeled gram that pages of many different hosts hold, pages that are otherwise no copies of
// the labeled site (their containment is below a cut), is common phrasing of the crawl — an API
// description, a license sentence, a search page's script text — not evidence that a page copies
// the site. It is the paper's stop list from blind discovery (Ardi and Heidemann §4.2: chunks that
// are common in the crawl are not evidence of copying), applied to the labeled grams and counted in
// distinct hosts, so that one host's many pages count once (the stop grams per host, host_stop.hpp,
// are for those). Mirrors do not count however many there are: their pages are mostly copied, so
// above the cut.
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

// The label ids, ascending, on every rank, of grams that pages of at least min_hosts distinct hosts
// hold where the page's containment counts[i].labeled / counts[i].chunks (the page rule's counts,
// after the stop grams per host) is below cut; labels in `stopped` (ascending: already stopped) and
// exact chunks of --chunker winnow+scan (scores.match_exact) are not counted. None when min_hosts is
// 0 (off: nothing is exchanged). A page's host is its key's first component. One reduce-by-key of
// (label, host) records to the label's owner (labels: this rank's slice; only its first_id is
// used), which counts a label's distinct hosts; exact integers and a comparison of the same
// doubles, so the result is the same for any rank count and input order. Collective.
std::vector<std::uint64_t> cross_host_stop_labels(comm::Transport& transport, const std::vector<std::string>& keys,
                                                  const PageScores& scores, std::span<const PageCounts> counts,
                                                  std::span<const std::uint64_t> stopped, const LabelSlice& labels,
                                                  std::uint64_t min_hosts, double cut, std::size_t round_bytes);

}  // namespace crd::detect
