// crd label, crd detect and crd run: the pipelines that build or use a labeled set.
#pragma once

#include "crd/comm/transport.hpp"
#include "crd/detect/detection.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/output/result_file.hpp"
#include "crd/pipeline/options.hpp"

namespace crd::pipeline {

// Informed discovery: every chunk of the expert corpus, minus stop chunks, becomes a label.
void run_label(const CommonOptions& common, const DiscoverOptions& options, comm::Transport& transport);

// Detection against labeled sets from earlier runs.
void run_detect(const CommonOptions& common, const DiscoverOptions& stop_options,
                const DetectPipelineOptions& options, comm::Transport& transport);

// Blind discovery then detection, reading the corpus once.
void run_discover_detect(const CommonOptions& common, const DiscoverOptions& discover_options,
                         const DetectPipelineOptions& options, comm::Transport& transport);

}  // namespace crd::pipeline
