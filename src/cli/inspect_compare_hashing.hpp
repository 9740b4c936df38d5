// crd inspect's summary of a /compare_hashing result (crd compare-hashing).
#pragma once

#include "crd/output/result_reader.hpp"

namespace crd::cli {

// Prints nothing for a file without /compare_hashing.
void print_compare_hashing(const output::ResultReader& r);

}  // namespace crd::cli
