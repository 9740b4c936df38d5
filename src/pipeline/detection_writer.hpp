// The /detection group of a result file, written by crd detect and crd run (detect_pipeline.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "crd/detect/detection.hpp"
#include "crd/output/result_file.hpp"

namespace crd::pipeline {

// Writes /detection (collective), consuming the result's rows.
void write_detection(output::ResultFile& file, detect::DetectionResult&& result,
                     const detect::LabelSlice& labels, std::uint64_t label_total,
                     const detect::DetectOptions& options, const std::string& join_mode);

}  // namespace crd::pipeline
