// build_report: runs each section over the result and renders the page.
#include "crd/report/build_report.hpp"

#include "crd/output/schema.hpp"
#include "crd/report/json_writer.hpp"
#include "report_page.hpp"
#include "sections.hpp"
#include "sha256.hpp"

namespace crd::report {

namespace schema = output::schema;
namespace attr = output::schema::attr;

std::string run_id(const output::ResultReader& r) {
  std::string identity;
  for (const auto* a : {&attr::kCrdVersion, &attr::kCommand, &attr::kCommandLine, &attr::kCreated, &attr::kConfig}) {
    identity += a->name;
    identity += '=';
    if (schema::has_attribute(r, *a)) identity += schema::attribute_string(r, *a);
    identity += '\n';
  }
  if (schema::has_attribute(r, attr::kNranks))
    identity += std::string(attr::kNranks.name) + "=" + std::to_string(schema::attribute_u64(r, attr::kNranks)) + "\n";
  const std::string counter_names = schema::kCounters.column(&output::NamedValueRow::name);
  if (r.has(counter_names)) {
    const auto names = r.read_strings(counter_names);
    const auto values = r.read_u64(schema::kCounters.column(&output::NamedValueRow::value));
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i)
      identity += names[i] + "=" + std::to_string(values[i]) + "\n";
  }
  return sha256_hex(identity).substr(0, 16);
}

std::string build_report(const output::ResultReader& reader, const std::string& path, const ReportOptions& options) {
  const ReportInput in{reader, path, options};
  ReportPage page;
  add_run_section(in, page);
  add_merge_section(in, page);
  add_discovery_section(in, page);
  add_labels_section(in, page);
  add_detection_section(in, page);
  add_similarity_pairs_section(in, page);
  add_neardup_section(in, page);
  add_quilts_section(in, page);
  add_compare_hashing_section(in, page);

  JsonWriter categories;
  categories.array(paper_chunk_categories());
  page.add_data("categories", categories.take());
  JsonWriter file;
  file.value(path);
  page.add_data("file", file.take());

  PageHeader header;
  header.run_id = run_id(reader);
  header.title = "crd report — " + path;
  header.subtitle = "crd " + schema::attribute_string(reader, attr::kCommand) + " result, created " +
                    schema::attribute_string(reader, attr::kCreated) + ", run id " + header.run_id;
  return page.render(header);
}

}  // namespace crd::report
