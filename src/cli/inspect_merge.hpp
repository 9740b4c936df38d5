// crd inspect's summary of a /merge result (crd merge).
#pragma once

#include "crd/output/result_reader.hpp"

namespace crd::cli {

// Prints nothing for a file without /merge/inputs.
void print_merge_inputs(const output::ResultReader& r);

}  // namespace crd::cli
