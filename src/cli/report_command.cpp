// crd report: a self-contained HTML review of a result file (single process, no MPI job).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/base/file_kind.hpp"
#include "crd/pipeline/output_check.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/report/build_report.hpp"

namespace crd::cli {
namespace {

// Written beside the target and renamed, so a failed write never leaves a half-written report.
// The temporary is created exclusively (never through a link planted under its name), and the
// target is looked at again just before the rename: a device, FIFO or link put there since the
// check is refused, not replaced.
void write_whole_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  std::FILE* f = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (f == nullptr) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw FatalError("cannot write '" + path + "': " + std::strerror(err));
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int saved = errno;
  if (std::fclose(f) != 0 || !written) {
    std::remove(tmp.c_str());
    throw FatalError("cannot write '" + path + "': " + std::strerror(written ? errno : saved));
  }
  if (const std::string kind = replace_problem(path); !kind.empty()) {
    std::remove(tmp.c_str());
    throw FatalError("output '" + path + "' " + kind + ": not replaced");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw FatalError("cannot write '" + path + "': " + std::strerror(err));
  }
}

}  // namespace

// --top is inspect's field; report keeps more rows by default (ReportOptions::top).
void report_defaults(Settings& s) { s.inspect.top = report::ReportOptions{}.top; }

int run_report(Invocation& in) {
  const std::vector<std::string>& inputs = in.inputs;
  const std::string& out = in.settings.common.output;
  if (inputs.size() != 1) throw UsageError("give exactly one result file (got " + std::to_string(inputs.size()) + ")");
  if (const std::string problem = pipeline::output_problem(out, inputs); !problem.empty()) throw UsageError(problem);
  in.settings.report.top = in.settings.inspect.top;
  const output::ResultReader reader(inputs[0]);
  write_whole_file(out, report::build_report(reader, inputs[0], in.settings.report));
  return 0;
}

}  // namespace crd::cli
