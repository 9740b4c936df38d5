// The run summary section: how the run went.
#include "crd/report/report_page.hpp"
#include "crd/report/sections.hpp"
#include "crd/report/svg_chart.hpp"
#include "crd/report/text_escape.hpp"

namespace crd::report {
namespace {

// A name/value table (/run/counters, /run/resources), optionally only the names with (or
// without) a prefix.
TableSpec named_values(const output::ResultReader& r, const std::string& group, const std::string& id,
                       const std::string& value_type, bool skipped) {
  const auto names = r.read_strings(group + "/name");
  const auto values = r.read_u64(group + "/value");
  std::vector<std::string> kept_names;
  std::vector<std::uint64_t> kept_values;
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) {
    if (names[i].starts_with("skipped.") != skipped) continue;
    kept_names.push_back(skipped ? names[i].substr(8) : names[i]);
    kept_values.push_back(values[i]);
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
  std::vector<Fact> items{{"result", in.path},
                          {"command", r.attribute_string("/", "command")},
                          {"crd version", r.attribute_string("/", "crd_version")},
                          {"created (UTC)", r.attribute_string("/", "created")},
                          {"MPI ranks", std::to_string(r.attribute_u64("/", "nranks"))}};
  html += facts(items);
  html += "<h3>Command line</h3><pre class=\"cmd\">" + html_escape(r.attribute_string("/", "command_line")) + "</pre>";
  if (r.has_attribute("/", "config"))
    html += "<details><summary>Effective configuration (reusable with --config)</summary><pre class=\"cmd\">" +
            html_escape(r.attribute_string("/", "config")) + "</pre></details>";

  if (r.has("/run/counters/name")) {
    const auto skipped = named_values(r, "/run/counters", "skips", "int", true);
    std::uint64_t total_skipped = 0;
    const auto names = r.read_strings("/run/counters/name");
    const auto values = r.read_u64("/run/counters/value");
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i].starts_with("skipped.")) total_skipped += values[i];
    html += "<div class=\"grid2\"><div>" + heading("Counters", 3) + table_slot("counters") + "</div><div>" +
            heading("Skipped, by reason (" + grouped(total_skipped) + " in all)", 3) + table_slot("skips") +
            "</div></div>";
    page.add_table(named_values(r, "/run/counters", "counters", "int", false));
    page.add_table(skipped);
  }
  if (r.has("/run/timings/phase")) {
    BarChart chart{"Wall time per phase (slowest rank)", "s", r.read_strings("/run/timings/phase"),
                   r.read_f64("/run/timings/seconds")};
    html += "<div class=\"grid2\"><figure>" + render_bars(chart) + "</figure>";
    if (r.has("/run/resources/name")) {
      html += "<div>" + heading("Resources (depend on the rank count)", 3) + table_slot("resources") + "</div>";
      TableSpec res = named_values(r, "/run/resources", "resources", "int", false);
      page.add_table(res);
    }
    html += "</div>";
  }
  if (r.has("/run/errors/file") && r.rows("/run/errors/file") > 0) {
    TableSpec t;
    t.id = "errors";
    t.add_text("file", "file", r.read_strings("/run/errors/file"), "url");
    const auto offsets = r.read_u64("/run/errors/offset");
    t.add_uint("offset", "byte offset", offsets);
    t.add_text("reason", "reason", r.read_strings("/run/errors/reason"));
    t.total_rows = t.rows();
    t.sort_key = "file";
    t.sort_descending = false;
    html += heading("Read errors (at most 100 per input file)", 3) + table_slot("errors");
    page.add_table(t);
  }
  page.add_section("run", "Run", html);
}

}  // namespace crd::report
