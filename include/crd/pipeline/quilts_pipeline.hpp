// crd quilts: pages stitched from patches of other pages (seed 003, Najork 2012), reading,
// cleaning and sharding the corpus exactly as discover does. See docs/quilts.md.
#pragma once

#include "crd/comm/transport.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/quilts/params.hpp"

namespace crd::pipeline {

// Collective. Writes /quilts and /run to common.output.
void run_quilts(const CommonOptions& common, const quilts::QuiltParams& params, comm::Transport& transport);

}  // namespace crd::pipeline
