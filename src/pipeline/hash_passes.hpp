// Out-of-core counting (docs/memory.md). When a rank's tables would pass --memory, discover, run and
// detect read the shard once per slice of the hash space (a pass, scan::HashPass): each pass tallies,
// exchanges and joins only the hashes of its slice, so its tables are a 1/P share, and the passes'
// results add up to exactly the in-memory result. Page keys and page chunk vectors are not divided.
#pragma once

#include "crd/detect/page_scores.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/pipeline/discover_pipeline.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "labels/label_set.hpp"

namespace crd::pipeline {

// Collective: blind discovery of chunks and files over p.passes passes (p from run_scan_phase with
// out_of_core). Its labeled_local stays empty (detection joins again: score_in_passes).
DiscoveryPhase discover_in_passes(comm::Transport& transport, ScanPhase& p, const CommonOptions& common,
                                  const DiscoverOptions& options, discover::ShuffleTotals& shuffled);

// Collective: this rank's page scores against `labels` over p.passes passes, each joining its slice
// of the chunks with the labels. Leaves the page keys in p.shard.keys.
detect::PageScores score_in_passes(comm::Transport& transport, ScanPhase& p, const CommonOptions& common,
                                   const LabelSet& labels, const discover::LabelRules& stop,
                                   discover::ShuffleTotals& shuffled);

}  // namespace crd::pipeline
