// build_report: runs each section over the result and renders the page.
#include "crd/report/build_report.hpp"

#include "crd/report/json_writer.hpp"
#include "crd/report/report_page.hpp"
#include "crd/report/sections.hpp"
#include "crd/report/sha256.hpp"

namespace crd::report {

std::string run_id(const output::ResultReader& r) {
  std::string identity;
  for (const char* a : {"crd_version", "command", "command_line", "created", "config"}) {
    identity += a;
    identity += '=';
    if (r.has_attribute("/", a)) identity += r.attribute_string("/", a);
    identity += '\n';
  }
  if (r.has_attribute("/", "nranks")) identity += "nranks=" + std::to_string(r.attribute_u64("/", "nranks")) + "\n";
  if (r.has("/run/counters/name")) {
    const auto names = r.read_strings("/run/counters/name");
    const auto values = r.read_u64("/run/counters/value");
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i)
      identity += names[i] + "=" + std::to_string(values[i]) + "\n";
  }
  return sha256_hex(identity).substr(0, 16);
}

std::string build_report(const output::ResultReader& reader, const std::string& path, const ReportOptions& options) {
  const ReportInput in{reader, path, options};
  ReportPage page;
  add_run_section(in, page);
  add_discovery_section(in, page);
  add_labels_section(in, page);
  add_detection_section(in, page);

  JsonWriter categories;
  categories.array(paper_chunk_categories());
  page.add_data("categories", categories.take());
  JsonWriter file;
  file.value(path);
  page.add_data("file", file.take());

  PageHeader header;
  header.run_id = run_id(reader);
  header.title = "crd report — " + path;
  header.subtitle = "crd " + reader.attribute_string("/", "command") + " result, created " +
                    reader.attribute_string("/", "created") + ", run id " + header.run_id;
  return page.render(header);
}

}  // namespace crd::report
