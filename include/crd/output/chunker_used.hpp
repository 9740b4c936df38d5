// Which chunker a result was made with, as crd inspect and crd report show it.
#pragma once

#include <string>

#include "crd/output/result_reader.hpp"

namespace crd::output {

// From the effective configuration (/@config): "scan (tags p,div)", "winnow (gram-words 5,
// window 4)", …; else the count tables' chunking identity (a merge result); else "unknown".
std::string chunker_used(const ResultReader& r);

// The same from an effective configuration's text (INI, "name = value" lines); "" without a
// chunker line.
std::string chunker_of_config(const std::string& config_ini);

}  // namespace crd::output
