// Two smaller sections: the similarity pairs of `detect --pairs` (/detection/pairs, Campbell, Chen & Smith 2000, §6)
// and the exact-versus-LSH comparison of `compare-hashing` (/compare_hashing, Ardi & Heidemann 2019, §6.5).
#include <algorithm>
#include <cstdio>
#include <map>

#include "crd/output/schema.hpp"
#include "report_page.hpp"
#include "sections.hpp"
#include "svg_chart.hpp"

namespace crd::report {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;
using output::ConfusionRow;
using output::SimilarityPairRow;

std::string sci(double v) { return format_number(v, "%.3g"); }

}  // namespace

void add_similarity_pairs_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  const auto& g = schema::kDetectionPairs;
  if (!r.has(g.column(&SimilarityPairRow::page))) return;
  const auto first = r.read_f64(g.column(&SimilarityPairRow::first));
  const auto second = r.read_f64(g.column(&SimilarityPairRow::second));
  const auto matching = r.read_u32(g.column(&SimilarityPairRow::matching));
  // Rows are by page; keep the pairs of the pages whose best pair covers most of the page.
  const auto rows = top_rows(first.size(), in.options.top, [&](auto a, auto b) {
    return first[a] != first[b] ? first[a] > first[b] : second[a] > second[b];
  });
  TableSpec t;
  t.id = "simpairs";
  t.total_rows = first.size();
  t.add_text("page", "flagged page", read_strings_at(r, g.column(&SimilarityPairRow::page), rows), "url");
  t.add_text("document", "labeled document", read_strings_at(r, g.column(&SimilarityPairRow::document), rows), "url");
  std::vector<std::uint64_t> m;
  for (auto i : rows) m.push_back(matching[i]);
  t.add_uint("matching", "shared labels", m);
  t.add_float("first", "fraction of page", gather(first, rows));
  t.columns.back().title = "the page's chunks whose label the document holds / the page's chunks";
  t.add_float("second", "fraction of document", gather(second, rows));
  t.columns.back().title = "the document's chunks whose label the page holds / the document's chunks";
  t.sort_key = "first";
  t.truncated_note = truncation_note(rows.size(), first.size(), "pairs", "fraction of page");
  if (!t.truncated_note.empty()) t.inspect_command = inspect_command(in.path, first.size());
  UnitHistogram by_page;
  by_page.title = "Similarity pairs by fraction of the page";
  by_page.x_label = "fraction of the flagged page found in the labeled document";
  by_page.values = first;
  UnitHistogram by_document;
  by_document.title = "Similarity pairs by fraction of the document";
  by_document.x_label = "fraction of the labeled document found in the flagged page";
  by_document.values = second;
  const std::string html =
      heading("Similarity pairs") +
      "<p class=\"hint\">Each flagged page with the labeled documents it overlaps most, as ⟨fraction of page, "
      "fraction of document⟩ (Campbell, Chen & Smith 2000, §6): ⟨1, small⟩ is a page copied whole out of a longer "
      "document, ⟨small, 1⟩ a short document quoted whole in the page.</p>" +
      "<div class=\"grid2\"><figure>" + render_unit_histogram(by_page) + "</figure><figure>" +
      render_unit_histogram(by_document) + "</figure></div>" + table_slot("simpairs");
  page.add_table(t);
  page.add_section("pairs", "Similarity pairs", html);
}

void add_compare_hashing_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  const auto& g = schema::kConfusion;
  if (!r.has(schema::kCompareHashing) || !r.has(g.column(&ConfusionRow::method))) return;
  const auto u64 = [&](const schema::Attribute& a) { return schema::attribute_u64(r, a); };
  const double extrapolate = schema::attribute_double(r, attr::kCompareExtrapolatePages);
  const auto method = r.read_strings(g.column(&ConfusionRow::method));
  const auto rule = r.read_strings(g.column(&ConfusionRow::rule));
  const auto threshold = r.read_f64(g.column(&ConfusionRow::threshold));
  const auto fp = r.read_u64(g.column(&ConfusionRow::fp));
  const auto tp = r.read_u64(g.column(&ConfusionRow::tp));
  const auto extrapolated = r.read_f64(g.column(&ConfusionRow::extrapolated_fp));
  std::string html = heading("Exact hashing against LSH");
  html += facts({{"pages", grouped(u64(attr::kComparePages))},
                 {"positives (pages under the truth prefixes)", grouped(u64(attr::kComparePositives))},
                 {"labels", grouped(u64(attr::kCompareLabels))},
                 {"chunks compared", grouped(u64(attr::kCompareChunks))},
                 {"extrapolated to", sci(extrapolate) +
                                         " pages (Ardi & Heidemann 2019, §6.5: the false-positive rate × this count; "
                                         "an estimate, not a measurement)"}});
  TableSpec t;
  t.id = "confusion";
  t.total_rows = method.size();
  std::vector<std::uint64_t> all(method.size());
  for (std::uint64_t i = 0; i < all.size(); ++i) all[i] = i;
  t.add_text("method", "method", method);
  t.add_text("rule", "rule", rule);
  t.add_float("threshold", "threshold", threshold);
  std::vector<std::string> headline;
  for (auto v : r.read_u8(g.column(&ConfusionRow::primary))) headline.push_back(v ? "headline" : "");
  t.add_text("primary", "threshold used in §6.5's table", headline);
  t.add_uint("tp", "TP", tp);
  t.add_uint("fp", "FP", fp);
  t.add_uint("fn", "FN", r.read_u64(g.column(&ConfusionRow::fn)));
  t.add_uint("tn", "TN", r.read_u64(g.column(&ConfusionRow::tn)));
  t.add_float("fpr", "FP rate", r.read_f64(g.column(&ConfusionRow::fpr)));
  t.add_float("extrapolated_fp", "FP extrapolated (estimate)", extrapolated);
  t.columns.back().title = "FP rate × " + sci(extrapolate) + " pages: an extrapolation, not a measurement";
  t.sort_key = "method";
  t.sort_descending = false;
  html +=
      heading("False positives per method and threshold (Ardi & Heidemann 2019, §6.5)", 3) + table_slot("confusion");
  page.add_table(t);

  // One figure per method: measured false positives and, dashed, the extrapolation.
  std::map<std::string, std::vector<std::size_t>> by_method;
  for (std::size_t i = 0; i < method.size(); ++i) by_method[method[i]].push_back(i);
  html += "<div class=\"grid2\">";
  for (auto& [name, list] : by_method) {
    std::sort(list.begin(), list.end(), [&](auto a, auto b) { return threshold[a] < threshold[b]; });
    LineChart c;
    c.title = name + ": false positives by threshold";
    c.x_label = "threshold (" + rule[list.front()] + ")";
    c.y_label = "false-positive pages (log)";
    c.log_y = true;
    LineSeries measured{"measured FP", {}, {}, false}, estimate{"extrapolated FP (estimate)", {}, {}, true};
    for (auto i : list) {
      measured.x.push_back(threshold[i]);
      measured.y.push_back(static_cast<double>(fp[i]));
      estimate.x.push_back(threshold[i]);
      estimate.y.push_back(extrapolated[i]);
    }
    c.series = {measured, estimate};
    html += "<figure>" + render_lines(c) + "</figure>";
  }
  html += "</div>";
  page.add_section("compare-hashing", "Hashing comparison", html);
}

}  // namespace crd::report
