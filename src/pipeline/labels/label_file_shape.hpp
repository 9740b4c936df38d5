// The shape a labeled set must have before any of it is read: a file crd did not write (or one
// edited by hand) may hold columns of other lengths, widths or types, and reading it as if it were
// well formed runs past the end of a column.
#pragma once

#include <string>

#include "crd/output/result_reader.hpp"

namespace crd::pipeline {

// Throws UsageError "labels file PATH: DATASET …" (one line naming the file and the dataset) unless
// `group` holds `hash` (n × 20, 1-byte unsigned integers), `length` (n unsigned integers) and, if
// present, `sample` (n fixed-length strings), all with the same n.
void check_label_file_shape(const output::ResultReader& reader, const std::string& group);

}  // namespace crd::pipeline
