// Loading a discover::LabelLookup (the label hashes of result files in one flat map) for the
// single-process commands, check and compare.
#pragma once

#include <string>
#include <vector>

#include "crd/discover/label_lookup.hpp"

namespace crd::pipeline {

// Reads the labeled group of every file (labels_group); a hash in several files keeps
// its first source. Throws UsageError for a file that holds no labeled set, or one chunked unlike
// `chunking` (the command's chunking identity: check_labels_chunking).
discover::LabelLookup load_label_lookup(const std::vector<std::string>& paths, const std::string& chunking);

}  // namespace crd::pipeline
