// The detection section (/detection): how pages and neighborhoods scored, the worst
// neighborhoods, the flagged pages, and where their labeled chunks come from.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "crd/output/result_summary.hpp"
#include "crd/output/schema.hpp"
#include "report_page.hpp"
#include "sections.hpp"
#include "svg_chart.hpp"

namespace crd::report {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;
using detect::NeighborhoodRow;
using detect::PageRow;
using output::DetectedLabelRow;
using output::ProvenanceRow;

constexpr std::uint64_t kRefsPerPage = 20;  // labeled chunks listed per page (the labeled column counts all)

std::string fixed(double v) { return format_number(v, "%.4f"); }

std::string score_figure(const std::vector<double>& values, const std::string& title, const std::string& x_label,
                         double mean, double threshold) {
  UnitHistogram h;
  h.title = title;
  h.x_label = x_label;
  h.values = values;
  h.markers = {{mean, "mean " + fixed(mean)}, {threshold, "threshold " + fixed(threshold)}};
  return "<figure>" + render_unit_histogram(h) + "</figure>";
}

// Worst neighborhoods: the union of the top N by badness, by labeled chunks and by pages, so the
// page can rank them any of the three ways.
TableSpec neighborhood_table(const ReportInput& in) {
  const auto& r = in.reader;
  const auto& g = schema::kNeighborhoods;
  const auto badness = r.read_f64(g.column(&NeighborhoodRow::badness));
  const auto labeled = r.read_u64(g.column(&NeighborhoodRow::labeled));
  const auto pages = r.read_u64(g.column(&NeighborhoodRow::pages));
  const std::uint64_t n = badness.size(), top = in.options.top;
  std::set<std::uint64_t> keep;
  for (auto i : top_rows(n, top, [&](auto a, auto b) { return badness[a] > badness[b]; })) keep.insert(i);
  for (auto i : top_rows(n, top, [&](auto a, auto b) { return labeled[a] > labeled[b]; })) keep.insert(i);
  for (auto i : top_rows(n, top, [&](auto a, auto b) { return pages[a] > pages[b]; })) keep.insert(i);
  const std::vector<std::uint64_t> rows(keep.begin(), keep.end());
  TableSpec t;
  t.id = "neighborhoods";
  t.total_rows = n;
  t.add_flag("flagged", "flagged", gather(r.read_u8(g.column(&NeighborhoodRow::flagged)), rows));
  t.add_float("badness", "badness", gather(badness, rows));
  t.add_uint("labeled", "labeled chunks", gather(labeled, rows));
  t.add_uint("chunks", "chunks", gather(r.read_u64(g.column(&NeighborhoodRow::chunks)), rows));
  t.add_uint("pages", "pages", gather(pages, rows));
  std::vector<std::uint64_t> depth;
  for (auto d : gather(r.read_u32(g.column(&NeighborhoodRow::depth)), rows)) depth.push_back(d);
  t.add_uint("depth", "depth", depth);
  t.add_text("prefix", "neighborhood (URL prefix)", read_strings_at(r, g.column(&NeighborhoodRow::prefix), rows),
             "url");
  t.sort_key = "badness";
  if (rows.size() < n) {
    t.truncated_note = "Showing " + grouped(rows.size()) + " of " + grouped(n) + " neighborhoods: the top " +
                       grouped(top) + " by badness, by labeled chunks and by pages (crd report --top sets how many).";
    t.inspect_command = inspect_command(in.path, n);
  }
  return t;
}

// The run's detection settings and outcome, and the two score histograms.
std::string detection_summary(const ReportInput& in, const std::vector<double>& containment) {
  const auto& r = in.reader;
  const auto& p = schema::kPages;
  const std::uint64_t npages = r.rows(p.column(&PageRow::url)),
                      nhoods = r.rows(schema::kNeighborhoods.column(&NeighborhoodRow::prefix));
  const output::DetectionSummary d = *output::read_detection_summary(r);
  std::string html = facts({{"labels used", grouped(d.label_count)},
                            {"badness", d.badness},
                            {"join", d.join},
                            {"min labeled chunks", grouped(d.min_labeled)},
                            {"pages flagged", grouped(d.pages.flagged) + " of " + grouped(npages)},
                            {"page mean / σ / threshold",
                             fixed(d.pages.mean) + " / " + fixed(d.pages.sigma) + " / " + fixed(d.pages.threshold)},
                            {"neighborhoods flagged", grouped(d.neighborhoods.flagged) + " of " + grouped(nhoods)},
                            {"neighborhood mean / σ / threshold", fixed(d.neighborhoods.mean) + " / " +
                                                                      fixed(d.neighborhoods.sigma) + " / " +
                                                                      fixed(d.neighborhoods.threshold)}});
  html += "<div class=\"grid2\">" +
          score_figure(r.read_f64(schema::kNeighborhoods.column(&NeighborhoodRow::badness)),
                       "Neighborhoods by badness (paper Fig. 12)", "badness", d.neighborhoods.mean,
                       d.neighborhoods.threshold) +
          score_figure(containment, "Pages by containment", "containment (labeled / chunks)", d.pages.mean,
                       d.pages.threshold) +
          "</div>";
  return html;
}

// The pages with labeled chunks, and the `top` of them the report lists.
struct ListedPages {
  std::vector<double> containment;
  std::vector<std::uint32_t> labeled;
  std::vector<std::uint8_t> flagged;
  std::uint64_t candidates = 0;    // pages with labeled chunks
  std::vector<std::uint64_t> rows;  // the listed ones: flagged first, then by containment and labeled chunks
};

ListedPages list_pages(const ReportInput& in, std::vector<double> containment) {
  const auto& r = in.reader;
  const auto& p = schema::kPages;
  ListedPages listed{std::move(containment), r.read_u32(p.column(&PageRow::labeled)),
                     r.read_u8(p.column(&PageRow::flagged)), 0, {}};
  const auto& c = listed.containment;
  const auto& labeled = listed.labeled;
  const auto& flagged = listed.flagged;
  std::vector<std::uint64_t> candidates;
  for (std::uint64_t i = 0; i < labeled.size(); ++i)
    if (labeled[i] > 0) candidates.push_back(i);
  const auto order = top_rows(candidates.size(), in.options.top, [&](std::uint64_t a, std::uint64_t b) {
    const auto i = candidates[a], j = candidates[b];
    if (flagged[i] != flagged[j]) return flagged[i] > flagged[j];
    if (c[i] != c[j]) return c[i] > c[j];
    return labeled[i] > labeled[j];
  });
  listed.candidates = candidates.size();
  for (auto k : order) listed.rows.push_back(candidates[k]);
  return listed;
}

// The labels table's rows, and each listed page's labels as rows of it.
struct ListedLabels {
  std::vector<std::uint64_t> ids;                      // label ids, ascending: the table's rows
  std::vector<std::vector<std::uint64_t>> page_labels;  // per listed page: rows of the table
};

// Their labeled chunks, and the top labels by pages: one labels table of at most `top` rows
// (the page stays small however many distinct labels the pages hold). The best-ranked pages'
// labels come first; a page lists at most kRefsPerPage, and only those the table kept.
ListedLabels list_labels(const ReportInput& in, const std::vector<std::uint64_t>& rows,
                         const std::vector<std::uint64_t>& label_pages) {
  const auto& r = in.reader;
  const auto& p = schema::kPages;
  const auto offsets = r.read_u64(p.offsets_column(&PageRow::label_ids));
  const std::uint64_t budget = in.options.top;
  ListedLabels listed;
  std::map<std::uint64_t, std::uint64_t> label_row;  // label id → row in the labels table
  for (auto i : rows) {
    const std::uint64_t n = std::min(offsets[i + 1] - offsets[i], kRefsPerPage);
    std::vector<std::uint64_t> ids;
    for (auto id : r.read_u32(p.column(&PageRow::label_ids), offsets[i], n)) {
      if (label_row.size() >= budget && !label_row.contains(id)) continue;
      label_row.emplace(id, 0);
      ids.push_back(id);
    }
    listed.page_labels.push_back(std::move(ids));
  }
  for (auto id : top_rows(label_pages.size(), budget,
                          [&](std::uint64_t a, std::uint64_t b) { return label_pages[a] > label_pages[b]; })) {
    if (label_row.size() >= budget) break;
    label_row.emplace(id, 0);
  }
  for (auto& [id, row] : label_row) {
    row = listed.ids.size();
    listed.ids.push_back(id);
  }
  for (auto& ids : listed.page_labels)
    for (auto& id : ids) id = label_row.at(id);
  return listed;
}

TableSpec pages_table(const ReportInput& in, const ListedPages& listed,
                      std::vector<std::vector<std::uint64_t>> page_labels) {
  const auto& r = in.reader;
  const auto& p = schema::kPages;
  const auto& rows = listed.rows;
  TableSpec pages;
  pages.id = "pages";
  pages.total_rows = listed.candidates;
  pages.add_flag("flagged", "flagged", gather(listed.flagged, rows));
  pages.add_float("containment", "containment", gather(listed.containment, rows));
  std::vector<std::uint64_t> lab, chunks;
  for (auto v : gather(listed.labeled, rows)) lab.push_back(v);
  for (auto v : gather(r.read_u32(p.column(&PageRow::chunks)), rows)) chunks.push_back(v);
  pages.add_uint("labeled", "labeled", lab);
  pages.add_uint("chunks", "chunks", chunks);
  pages.add_text("url", "page", read_strings_at(r, p.column(&PageRow::url), rows), "url");
  pages.add_refs("labels", "labeled chunks (click)", page_labels, "dlabels");
  pages.columns.back().title = "the page's labeled chunks, with pages that hold them (at most 20 listed)";
  pages.sort_key = "containment";
  pages.truncated_note = truncation_note(rows.size(), listed.candidates, "pages with labeled chunks",
                                         "flagged, containment and labeled chunks");
  if (!pages.truncated_note.empty()) pages.inspect_command = inspect_command(in.path, listed.candidates);
  return pages;
}

// Each listed label's provenance sample: the URLs of the pages holding it.
std::vector<std::vector<std::string>> provenance_of(const ReportInput& in, const std::vector<std::uint64_t>& label_ids) {
  const auto& r = in.reader;
  const auto prov_label = r.read_u32(schema::kProvenance.column(&ProvenanceRow::label));
  std::vector<std::uint64_t> prov_rows;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (auto id : label_ids) {
    const auto [lo, hi] = std::equal_range(prov_label.begin(), prov_label.end(), static_cast<std::uint32_t>(id));
    ranges.emplace_back(prov_rows.size(), prov_rows.size() + static_cast<std::uint64_t>(hi - lo));
    for (auto it = lo; it != hi; ++it) prov_rows.push_back(static_cast<std::uint64_t>(it - prov_label.begin()));
  }
  const auto prov_urls = read_strings_at(r, schema::kProvenance.column(&ProvenanceRow::url), prov_rows);
  std::vector<std::vector<std::string>> provenance;
  for (const auto& [first, last] : ranges)
    provenance.emplace_back(prov_urls.begin() + static_cast<std::ptrdiff_t>(first),
                            prov_urls.begin() + static_cast<std::ptrdiff_t>(last));
  return provenance;
}

// The labels table: samples, spread, provenance.
TableSpec labels_table(const ReportInput& in, const std::vector<std::uint64_t>& label_ids,
                       const std::vector<std::uint64_t>& label_pages) {
  const auto& r = in.reader;
  const auto& dl = schema::kDetectionLabels;
  TableSpec labels;
  labels.id = "dlabels";
  labels.pruning = true;
  labels.total_rows = label_pages.size();
  labels.add_uint("pages", "pages", gather(label_pages, label_ids));
  labels.add_uint("neighborhoods", "neighborhoods",
                  gather(r.read_u64(dl.column(&DetectedLabelRow::neighborhoods)), label_ids));
  labels.add_uint("occurrences", "occurrences",
                  gather(r.read_u64(dl.column(&DetectedLabelRow::occurrences)), label_ids));
  std::vector<std::uint64_t> lengths;
  for (auto v : gather(r.read_u32(dl.column(&DetectedLabelRow::length)), label_ids)) lengths.push_back(v);
  labels.add_uint("length", "length", lengths);
  labels.add_text("sample", "sample", read_strings_at(r, dl.column(&DetectedLabelRow::sample), label_ids));
  labels.add_text_lists("provenance", "pages holding it (provenance sample)", provenance_of(in, label_ids));
  labels.add_hash("hash", "SHA-1", read_hashes_at(r, dl.column(&DetectedLabelRow::hash), label_ids));
  labels.sort_key = "pages";
  if (label_ids.size() < label_pages.size()) {
    labels.truncated_note = "Showing " + grouped(label_ids.size()) + " of " + grouped(label_pages.size()) +
                            " labels: those of the pages listed above (best-ranked pages first), then the top by pages, " +
                            grouped(in.options.top) + " in all (crd report --top sets how many).";
    labels.inspect_command = inspect_command(in.path, label_pages.size());
  }
  return labels;
}

}  // namespace

void add_detection_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  const auto& p = schema::kPages;
  if (!r.has(p.column(&PageRow::url))) return;
  auto containment = r.read_f64(p.column(&PageRow::containment));
  std::string html = heading("Detection") + detection_summary(in, containment);

  html += heading("Worst neighborhoods", 3) +
          "<p class=\"hint\">Rank by badness, labeled chunks or pages by clicking a column; the paper reads the "
          "top 40 (its Tables 4 and 5).</p>" + table_slot("neighborhoods");
  page.add_table(neighborhood_table(in));

  const ListedPages pages = list_pages(in, std::move(containment));
  const auto label_pages = r.read_u64(schema::kDetectionLabels.column(&DetectedLabelRow::pages));
  ListedLabels labels = list_labels(in, pages.rows, label_pages);
  html += heading("Pages with labeled chunks", 3) +
          "<p class=\"hint\">Click a page's labeled-chunk count to see its chunks and where else they occur "
          "(provenance).</p>" + table_slot("pages");
  page.add_table(pages_table(in, pages, std::move(labels.page_labels)));

  html += heading("Labels used in detection", 3) + table_slot("dlabels");
  page.add_table(labels_table(in, labels.ids, label_pages));
  page.add_section("detection", "Detection", html);
}

}  // namespace crd::report
