// crd merge: the count tables of several discover results summed at the hashes' owners, then
// labeled, annotated and written exactly as discover would over the union of their inputs.
#pragma once

#include "crd/comm/transport.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::pipeline {

// Collective. common.inputs are the result files; options the thresholds, top-N and stop items
// applied to the summed counts. Throws UsageError/FatalError on every rank alike.
void run_merge(const CommonOptions& common, const DiscoverOptions& options, comm::Transport& transport);

}  // namespace crd::pipeline
