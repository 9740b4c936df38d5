// The report's sections, one function each. A section adds itself to the page only when the
// result holds its data (a discover result has no detection section, and so on).
#pragma once

#include "crd/report/report_input.hpp"
#include "report_page.hpp"

namespace crd::report {

// Command line, configuration, counters (skip reasons apart), timings, resources, read errors.
void add_run_section(const ReportInput& in, ReportPage& page);
// /discovery: top chunks (with pruning) and files, and the frequency–occurrence figures.
void add_discovery_section(const ReportInput& in, ReportPage& page);
// /labels (informed discovery): the expert corpus's labeled chunks (with pruning).
void add_labels_section(const ReportInput& in, ReportPage& page);
// /detection: badness and containment figures, worst neighborhoods, flagged pages and the
// provenance of their labeled chunks.
void add_detection_section(const ReportInput& in, ReportPage& page);

// /neardup: similarity distributions with thresholds, same/cross-site split, largest clusters,
// the pairs, and pages to mark as the original or not a copy (exported as CSV).
void add_neardup_section(const ReportInput& in, ReportPage& page);
// /quilts: quilted pages with their sources in greedy order, the sweep (Table 1, Fig. 3), and
// benign marks exported as a URL list for `crd quilts --exclude-pages`.
void add_quilts_section(const ReportInput& in, ReportPage& page);
// /detection/pairs (detect --pairs): each flagged page's labeled documents.
void add_similarity_pairs_section(const ReportInput& in, ReportPage& page);
// /compare_hashing: the false-positive table and curves per method, the extrapolation marked.
void add_compare_hashing_section(const ReportInput& in, ReportPage& page);

// /merge (crd merge): the inputs summed, with their counts.
void add_merge_section(const ReportInput& in, ReportPage& page);

// The paper's Table 2 categories of frequent chunks, offered in each chunk's category menu.
const std::vector<std::string>& paper_chunk_categories();

}  // namespace crd::report
