// The run summary section: how the run went.
#include "crd/output/result_summary.hpp"
#include "crd/output/schema.hpp"
#include "report_page.hpp"
#include "sections.hpp"
#include "svg_chart.hpp"
#include "text_escape.hpp"

namespace crd::report {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;
using output::NamedValueRow;

// A name/value table (/run/counters, /run/resources), optionally only the names with (or
// without) a prefix.
TableSpec named_values(const output::ResultReader& r, const output::Table<NamedValueRow>& table, const std::string& id,
                       const std::string& value_type, bool skipped) {
  std::vector<std::string> kept_names;
  std::vector<std::uint64_t> kept_values;
  // read_table refuses a value column shorter than the names (its counters would vanish unseen).
  for (const auto& row : output::read_table(r, table)) {
    if (row.name.starts_with("skipped.") != skipped) continue;
    kept_names.push_back(skipped ? row.name.substr(8) : row.name);
    kept_values.push_back(row.value);
  }
  TableSpec t;
  t.id = id;
  t.page_size = 100;
  t.add_text("name", skipped ? "skip reason" : "name", kept_names, "text");
  t.add_uint("value", skipped ? "records or files skipped" : "value", kept_values);
  t.columns.back().type = value_type;
  t.total_rows = t.rows();
  t.sort_key = skipped ? "value" : "name";
  t.sort_descending = skipped;
  return t;
}

}  // namespace

void add_run_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  std::string html = heading("Run");
  const output::RunSummary run = output::read_run_summary(r);
  std::vector<Fact> items{{"result", in.path},           {"command", run.command},
                          {"crd version", run.crd_version}, {"created (UTC)", run.created},
                          {"MPI ranks", std::to_string(run.nranks)}, {"chunker", run.chunker}};
  html += facts(items);
  html += "<h3>Command line</h3><pre class=\"cmd\">" + html_escape(schema::attribute_string(r, attr::kCommandLine)) +
          "</pre>";
  if (schema::has_attribute(r, attr::kConfig))
    html += "<details><summary>Effective configuration (reusable with --config)</summary><pre class=\"cmd\">" +
            html_escape(schema::attribute_string(r, attr::kConfig)) + "</pre></details>";

  if (r.has(schema::kCounters.column(&NamedValueRow::name))) {
    const auto skipped = named_values(r, schema::kCounters, "skips", "int", true);
    std::uint64_t total_skipped = 0;
    const auto names = r.read_strings(schema::kCounters.column(&NamedValueRow::name));
    const auto values = r.read_u64(schema::kCounters.column(&NamedValueRow::value));
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i].starts_with("skipped.")) total_skipped += values[i];
    html += "<div class=\"grid2\"><div>" + heading("Counters", 3) + table_slot("counters") + "</div><div>" +
            heading("Skipped, by reason (" + grouped(total_skipped) + " in all)", 3) + table_slot("skips") +
            "</div></div>";
    page.add_table(named_values(r, schema::kCounters, "counters", "int", false));
    page.add_table(skipped);
  }
  if (r.has(schema::kTimings.column(&output::TimingRow::phase))) {
    BarChart chart{"Wall time per phase (slowest rank)", "s",
                   r.read_strings(schema::kTimings.column(&output::TimingRow::phase)),
                   r.read_f64(schema::kTimings.column(&output::TimingRow::seconds))};
    html += "<div class=\"grid2\"><figure>" + render_bars(chart) + "</figure>";
    if (r.has(schema::kResources.column(&NamedValueRow::name))) {
      html += "<div>" + heading("Resources (depend on the rank count)", 3) + table_slot("resources") + "</div>";
      TableSpec res = named_values(r, schema::kResources, "resources", "int", false);
      page.add_table(res);
    }
    html += "</div>";
  }
  const std::string error_files = schema::kErrors.column(&io::ReadError::file);
  if (r.has(error_files) && r.rows(error_files) > 0) {
    TableSpec t;
    t.id = "errors";
    t.add_text("file", "file", r.read_strings(error_files), "url");
    const auto offsets = r.read_u64(schema::kErrors.column(&io::ReadError::offset));
    t.add_uint("offset", "byte offset", offsets);
    t.add_text("reason", "reason", r.read_strings(schema::kErrors.column(&io::ReadError::reason)));
    t.total_rows = t.rows();
    t.sort_key = "file";
    t.sort_descending = false;
    html += heading("Read errors (at most 100 per input file)", 3) + table_slot("errors");
    page.add_table(t);
  }
  page.add_section("run", "Run", html);
}

}  // namespace crd::report
