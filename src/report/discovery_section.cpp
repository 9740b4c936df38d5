// The discovery section (/discovery) and the informed-discovery section (/labels): labeled
// chunks with the pruning tools, labeled files, and the frequency–occurrence figures.
#include "crd/output/schema.hpp"
#include "report_page.hpp"
#include "sections.hpp"
#include "svg_chart.hpp"

namespace crd::report {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;
using discover::HistogramRow;
using discover::LabelRow;
using LabelTable = output::Table<LabelRow>;
using HistogramTable = output::Table<HistogramRow>;

std::vector<Fact> table_facts(const output::ResultReader& r, const LabelTable& table) {
  std::vector<Fact> out;
  const std::pair<const char*, const char*> names[] = {{attr::kThreshold, "threshold (labeled when count >)"},
                                                       {attr::kTotal, "occurrences counted"},
                                                       {attr::kDistinct, "distinct"},
                                                       {attr::kLabeled, "labeled"},
                                                       {attr::kStopRemoved, "removed as stop or short"},
                                                       {attr::kMinChunkLength, "min chunk length (bytes)"}};
  for (const auto& [name, label] : names)
    if (r.has_attribute(table.group, name)) out.push_back({label, grouped(r.attribute_u64(table.group, name))});
  return out;
}

// `labeled`: the table whose threshold the figure marks, if any.
std::string histogram_figure(const output::ResultReader& r, const HistogramTable& histogram, const std::string& title,
                             const std::string& what, const LabelTable* labeled) {
  if (!r.has(histogram.column(&HistogramRow::occurrences))) return "";
  LogLogChart chart;
  chart.title = title;
  chart.x_label = "occurrences of a " + what;
  chart.y_label = "distinct " + what + "s";
  for (auto v : r.read_u64(histogram.column(&HistogramRow::occurrences))) chart.x.push_back(static_cast<double>(v));
  for (auto v : r.read_u64(histogram.column(&HistogramRow::distinct))) chart.y.push_back(static_cast<double>(v));
  if (labeled != nullptr && r.has_attribute(labeled->group, attr::kThreshold)) {
    const auto t = r.attribute_u64(labeled->group, attr::kThreshold);
    chart.threshold = Marker{static_cast<double>(t) + 0.5, "threshold: count > " + grouped(t)};
  }
  return "<figure>" + render_loglog(chart) + "</figure>";
}

// A labeled-chunk table (/discovery/chunks or /labels): `rows` chosen by the caller.
TableSpec chunk_table(const ReportInput& in, const LabelTable& table, const std::string& id,
                      const std::vector<std::uint64_t>& rows) {
  const auto& r = in.reader;
  TableSpec t;
  t.id = id;
  t.pruning = true;
  t.total_rows = r.rows(table.column(&LabelRow::hash));
  t.add_uint("count", "count", gather(r.read_u64(table.column(&LabelRow::count)), rows));
  std::vector<std::uint64_t> lengths;
  for (auto v : gather(r.read_u32(table.column(&LabelRow::length)), rows)) lengths.push_back(v);
  t.add_uint("length", "length", lengths);
  t.add_text("sample", "sample", read_strings_at(r, table.column(&LabelRow::sample), rows));
  t.add_text("sample_url", "sample URL", read_strings_at(r, table.column(&LabelRow::sample_url), rows), "url");
  t.add_hash("hash", "SHA-1", read_hashes_at(r, table.column(&LabelRow::hash), rows));
  t.sort_key = "count";
  t.truncated_note = truncation_note(rows.size(), t.total_rows, "chunks", "count");
  if (!t.truncated_note.empty()) t.inspect_command = inspect_command(in.path, t.total_rows);
  return t;
}

}  // namespace

const std::vector<std::string>& paper_chunk_categories() {
  // Ardi & Heidemann 2019, Table 2 ("Categories of the top 100 distinct chunks in C_cc").
  static const std::vector<std::string> categories{"Common (benign)", "Templates", "e-Commerce", "Other", "Misc."};
  return categories;
}

void add_discovery_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  if (!r.has(schema::kDiscovery)) return;
  const auto& chunks = schema::kDiscoveryChunks;
  const auto& files = schema::kDiscoveryFiles;
  std::string html = heading("Discovery");
  html +=
      "<div class=\"grid2\">" +
      histogram_figure(r, schema::kChunkHistogram, "Chunks: frequency–occurrence (paper Fig. 2)", "chunk", &chunks) +
      histogram_figure(r, schema::kFileHistogram, "Files: frequency–occurrence (paper Fig. 1)", "file", &files) +
      "</div>";
  if (r.has(chunks.column(&LabelRow::hash))) {
    const std::uint64_t n = std::min(in.options.top, r.rows(chunks.column(&LabelRow::hash)));
    std::vector<std::uint64_t> rows(n);
    std::iota(rows.begin(), rows.end(), std::uint64_t{0});  // stored by count, descending
    const TableSpec t = chunk_table(in, chunks, "chunks", rows);
    html += heading("Labeled chunks", 3) + facts(table_facts(r, chunks));
    html += "<p class=\"hint\">Review the most frequent chunks as the paper does (§4.4.2, §7.2): tick the "
            "benign ones, give each a category, then <b>Export stop list</b> and rerun with "
            "<code>--stop-chunks FILE</code>. Marks are kept in this browser for this result.</p>";
    html += table_slot("chunks");
    page.add_table(t);
  }
  if (r.has(files.column(&LabelRow::hash))) {
    const std::uint64_t n = std::min(in.options.top, r.rows(files.column(&LabelRow::hash)));
    std::vector<std::uint64_t> rows(n);
    std::iota(rows.begin(), rows.end(), std::uint64_t{0});
    TableSpec t;
    t.id = "files";
    t.total_rows = r.rows(files.column(&LabelRow::hash));
    t.add_uint("count", "count", gather(r.read_u64(files.column(&LabelRow::count)), rows));
    t.add_uint("length", "bytes", gather(r.read_u64(files.column(&LabelRow::length)), rows));
    t.add_text("sample_url", "sample URL", read_strings_at(r, files.column(&LabelRow::sample_url), rows), "url");
    t.add_hash("hash", "SHA-1", read_hashes_at(r, files.column(&LabelRow::hash), rows));
    t.sort_key = "count";
    t.truncated_note = truncation_note(n, t.total_rows, "files", "count");
    if (!t.truncated_note.empty()) t.inspect_command = inspect_command(in.path, t.total_rows);
    html += heading("Labeled files", 3) + facts(table_facts(r, files)) + table_slot("files");
    page.add_table(t);
  }
  page.add_section("discovery", "Discovery", html);
}

void add_labels_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  const auto& labels = schema::kLabels;
  if (!r.has(labels.column(&LabelRow::hash))) return;
  const auto counts = r.read_u64(labels.column(&LabelRow::count));
  const auto rows = top_rows(counts.size(), in.options.top,
                             [&](std::uint64_t a, std::uint64_t b) { return counts[a] > counts[b]; });
  std::string html = heading("Labels (informed discovery)");
  html += "<div class=\"grid2\">" +
          histogram_figure(r, schema::kLabelsHistogram, "Expert corpus: frequency–occurrence", "chunk", nullptr) +
          "<div>" + facts(table_facts(r, labels)) + "</div></div>";
  html += table_slot("labels");
  page.add_table(chunk_table(in, labels, "labels", rows));
  page.add_section("labels", "Labels", html);
}

}  // namespace crd::report
