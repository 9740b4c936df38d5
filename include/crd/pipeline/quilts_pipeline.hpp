// crd quilts: pages stitched from patches of other pages (Najork 2012), reading,
// cleaning and sharding the corpus exactly as discover does. See docs/quilts.md.
#pragma once

#include <string>

#include "crd/comm/transport.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/quilts/params.hpp"

namespace crd::pipeline {

// Collective. Writes /quilts and /run to common.output. `exclude_pages`, when not empty, names a
// list of URL keys (crd report's benign marks) left out of the corpus, as if not crawled: they are
// neither quilts nor sources, and each is counted as quilts.pages.excluded.
void run_quilts(const CommonOptions& common, const quilts::QuiltParams& params, comm::Transport& transport,
                const std::string& exclude_pages = "");

}  // namespace crd::pipeline
