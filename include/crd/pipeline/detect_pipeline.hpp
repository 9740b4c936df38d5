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

// Writes /detection (collective), consuming the result's rows.
void write_detection(output::ResultFile& file, detect::DetectionResult&& result,
                     const detect::LabelSlice& labels, std::uint64_t label_total,
                     const detect::DetectOptions& options, const std::string& join_mode);

// By local chunk id: 1 for a stop chunk (stop list or shorter than the minimum length), which
// detection leaves out of a page's chunks.
std::vector<std::uint8_t> stop_flags(const discover::LocalTally& chunks, const discover::LabelRules& rules);

// By local chunk id: 1 for an exact chunk, 0 for a winnowed gram of --chunker winnow+scan (its sample
// starts with chunk::kGramMark). The samples must be kept (sample_bytes >= 1).
std::vector<std::uint8_t> exact_flags(const discover::LocalTally& chunks);

}  // namespace crd::pipeline
