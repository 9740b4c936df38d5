// crd inspect's summary of a /quilts result.
#pragma once

#include <cstddef>

#include "crd/output/result_reader.hpp"

namespace crd::cli {

// Prints nothing for a file without /quilts.
void print_quilts(const output::ResultReader& r, std::size_t top);

}  // namespace crd::cli
