// What each phase's checkpoint holds: the scanned shard, the discovery results, the detection
// results of one rank — everything the later phases read, nothing they recompute. Loading checks
// every index a payload holds against the tables it points into (std::runtime_error if one does
// not fit), so a crafted file is refused, never used.
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
// Throws std::runtime_error if `d` labels a local id past `distinct` (the rank's tally size), or
// holds a label id past its label count: a discovery checkpoint is read against the rank's scanned
// shard, and must fit it.
void check_local_ids(const discover::TallyDiscovery& d, std::uint64_t distinct);

void save_detection(BinaryFileWriter& out, const detect::DetectionResult& d);
detect::DetectionResult load_detection(BinaryFileReader& in);
// Throws std::runtime_error unless `d` holds the provenance of exactly `labels` labels (the
// rank's LabelSlice, which the detection writer walks beside it).
void check_label_use(const detect::DetectionResult& d, std::uint64_t labels);

}  // namespace crd::pipeline
