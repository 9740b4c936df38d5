// build_report: the whole HTML report of one result file (crd report).
#pragma once

#include <string>

#include "crd/output/result_reader.hpp"
#include "crd/report/report_input.hpp"

namespace crd::report {

std::string build_report(const output::ResultReader& reader, const std::string& path, const ReportOptions& options);

// The result's run id: the first 16 hex digits of the SHA-256 of what identifies the run (root
// attributes crd_version, command, command_line, created, nranks, config, and the counters).
// Results carry no stored id; this one is the same for every report of one result file and
// differs between runs, which is what keying the page's saved marks needs.
std::string run_id(const output::ResultReader& reader);

}  // namespace crd::report
