// The comparison as text: Table 1's confusion matrix at each method's headline threshold, then
// every sweep point with its false-positive rate extrapolated to a web-size corpus (§6.5).
#pragma once

#include <string>
#include <vector>

#include "crd/output/result_rows.hpp"

namespace crd::compare {

std::string format_tables(const std::vector<output::ConfusionRow>& rows, double extrapolate_pages);

}  // namespace crd::compare
