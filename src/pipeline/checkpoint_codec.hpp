// What each phase's checkpoint holds: the scanned shard, the discovery results, the detection
// results of one rank — everything the later phases read, nothing they recompute.
#pragma once

#include "crd/base/binary_file.hpp"
#include "crd/detect/detection.hpp"
#include "crd/scan/corpus_scan.hpp"
#include "crd/discover/discovery.hpp"

namespace crd::pipeline {

void save_shard(BinaryFileWriter& out, const scan::ScannedShard& shard);
scan::ScannedShard load_shard(BinaryFileReader& in);

void save_discovery(BinaryFileWriter& out, const discover::TallyDiscovery& d);
discover::TallyDiscovery load_discovery(BinaryFileReader& in);

void save_detection(BinaryFileWriter& out, const detect::DetectionResult& d);
detect::DetectionResult load_detection(BinaryFileReader& in);

}  // namespace crd::pipeline
