// crd report: a self-contained HTML review of a result file (single process, no MPI job).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "commands.hpp"
#include "option_groups.hpp"
#include "crd/base/error.hpp"
#include "crd/output/result_reader.hpp"
#include "option_values.hpp"
#include "crd/report/build_report.hpp"

namespace crd::cli {
namespace {

// Written beside the target and renamed, so a failed write never leaves a half-written report.
void write_whole_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw FatalError("cannot write '" + path + "': " + std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int saved = errno;
  if (std::fclose(f) != 0 || !written) {
    std::remove(tmp.c_str());
    throw FatalError("cannot write '" + path + "': " + std::strerror(written ? errno : saved));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw FatalError("cannot write '" + path + "': " + std::strerror(err));
  }
}

}  // namespace

int report_command(int argc, char** argv) {
  report::ReportOptions options;
  std::string out;
  po::options_description visible(
      "crd report RESULT.h5 -o REPORT.html [--top N]\n\n"
      "A self-contained HTML review of a result (no MPI job, no network): run summary, figures,\n"
      "sortable tables, and the paper's human-assisted pruning (mark benign chunks, export a stop list)");
  visible.add_options()
      ("output,o", po::value<std::string>(&out)->required(), "the HTML file to write")
      ("top", count_value(options.top),
       "rows kept per table (the top by the table's ranking); the page says when rows were left out")
      ("help,h", "show this help");
  if (print_help(argc, argv, visible)) return 0;
  const auto inputs = parse_command(argc, argv, visible, kNoResultFile).inputs;
  if (inputs.size() != 1) throw UsageError("give exactly one result file (got " + std::to_string(inputs.size()) + ")");
  if (options.top == 0) throw UsageError("option --top: must be at least 1");
  std::error_code ec;
  if (std::filesystem::equivalent(inputs[0], out, ec))
    throw UsageError("the output '" + out + "' is the result file itself");
  const output::ResultReader reader(inputs[0]);
  write_whole_file(out, report::build_report(reader, inputs[0], options));
  return 0;
}

}  // namespace crd::cli
