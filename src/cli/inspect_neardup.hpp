// crd inspect's summary of a /neardup result.
#pragma once

#include <cstddef>

#include "crd/output/result_reader.hpp"

namespace crd::cli {

// Prints nothing for a file without /neardup.
void print_neardup(const output::ResultReader& r, std::size_t top);

}  // namespace crd::cli
