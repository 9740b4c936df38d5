// The quilts section (/quilts, crd quilts): the quilted pages with their sources in greedy order,
// the sweep as Najork 2012's Table 1 and the monotonicity curves of its Fig. 3, and marks that export
// benign pages as a URL list for `crd quilts --exclude-pages`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "crd/text/fingerprint.hpp"
#include "crd/output/schema.hpp"
#include "report_page.hpp"
#include "sections.hpp"
#include "svg_chart.hpp"

namespace crd::report {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;
using quilts::PageRow;
using quilts::SourceRow;
using quilts::SweepRow;

constexpr std::size_t kSourcesListed = 10;  // sources listed per page, the greedy cover's first (the count column counts all)

std::string number(double v) { return format_number(v, "%.4g"); }

// A home page (`host`, `host/`, `host/index.html`…): Najork 2012's commonest false positive, a blog's
// front page quilted from its own posts.
bool is_home_page(std::string_view key) {
  const auto slash = key.find('/');
  if (slash == std::string_view::npos) return true;
  const std::string_view path = key.substr(slash + 1);
  return path.empty() || path == "index.html" || path == "index.htm" || path == "index.php";
}

// One curve of Fig. 3: percent quilted against `param` with every other parameter at the pivot.
LineSeries sweep_curve(const std::vector<SweepRow>& rows, const SweepRow& pivot, char param) {
  LineSeries s;
  std::vector<std::pair<double, double>> points;
  for (const auto& row : rows) {
    const bool k = row.k == pivot.k, m = row.m == pivot.m, c = row.c == pivot.c, t = row.theta == pivot.theta;
    if (param == 'm' && k && c && t) points.emplace_back(static_cast<double>(row.m), row.percent);
    if (param == 'c' && k && m && t) points.emplace_back(static_cast<double>(row.c), row.percent);
    if (param == 't' && k && m && c) points.emplace_back(row.theta, row.percent);
  }
  std::sort(points.begin(), points.end());
  for (const auto& [x, y] : points) {
    s.x.push_back(x);
    s.y.push_back(y);
  }
  s.name = "% quilted";
  return s;
}

std::string sweep_figure(const std::vector<SweepRow>& rows, const SweepRow& pivot, char param,
                         const std::string& x_label) {
  LineChart chart;
  chart.series.push_back(sweep_curve(rows, pivot, param));
  if (chart.series.back().x.size() < 2) return "";
  chart.title = "Quilted pages against " + x_label + " (Najork 2012, Fig. 3)";
  chart.x_label = x_label;
  chart.y_label = "% of pages quilted";
  return "<figure>" + render_lines(chart) + "</figure>";
}

std::string quilts_facts(const output::ResultReader& r) {
  const auto u64 = [&](const schema::Attribute& a) { return schema::attribute_u64(r, a); };
  const auto f64 = [&](const schema::Attribute& a) { return schema::attribute_double(r, a); };
  const std::string foreign = schema::attribute_string(r, attr::kQuiltForeign);
  return facts({{"k (words per gram)", grouped(u64(attr::kQuiltK))},
                {"m (a patch gram is held by at most m pages)", grouped(u64(attr::kQuiltM))},
                {"c (at most c sources)", grouped(u64(attr::kQuiltC))},
                {"θ (patch grams the sources must cover)", number(f64(attr::kQuiltTheta))},
                {"least share of a source", number(f64(attr::kQuiltMinSourceShare))},
                {"foreign-sourced", foreign == "off" ? "off: a source may be any other page, same site included"
                                                     : foreign + ": a source must be on another " + foreign},
                {"pages / quilted", grouped(u64(attr::kQuiltPageCount)) + " / " + grouped(u64(attr::kQuiltQuiltedCount))}});
}

// The quilted pages, and the `top` of them listed: by patchfrac, then patch grams.
struct QuiltedPages {
  std::vector<std::string> urls;
  std::vector<double> patchfrac;
  std::vector<std::uint64_t> patch;
  std::uint64_t candidates = 0;     // quilted pages
  std::vector<std::uint64_t> rows;  // the listed ones
};

QuiltedPages list_quilted(const ReportInput& in) {
  const auto& r = in.reader;
  const auto& pg = schema::kQuiltPages;
  QuiltedPages q{r.read_strings(pg.column(&PageRow::url)), r.read_f64(pg.column(&PageRow::patchfrac)),
                 r.read_u64(pg.column(&PageRow::patch_grams)), 0, {}};
  const auto quilted = r.read_u8(pg.column(&PageRow::quilted));
  std::vector<std::uint64_t> candidates;
  for (std::uint64_t i = 0; i < q.urls.size(); ++i)
    if (quilted[i]) candidates.push_back(i);
  const auto order = top_rows(candidates.size(), in.options.top, [&](auto a, auto b) {
    const auto i = candidates[a], j = candidates[b];
    return q.patchfrac[i] != q.patchfrac[j] ? q.patchfrac[i] > q.patchfrac[j] : q.patch[i] > q.patch[j];
  });
  q.candidates = candidates.size();
  for (auto k : order) q.rows.push_back(candidates[k]);
  return q;
}

// The listed pages' sources (the qsources table), and per page its rows there and counts.
struct ListedSources {
  TableSpec table;
  std::vector<std::vector<std::uint64_t>> refs;     // per listed page: its rows of the table
  std::vector<std::uint64_t> same_host_sources;     // per listed page
  std::vector<std::uint8_t> home;                   // per listed page: a site's front page
};

// /quilts/sources is by page, then source URL. The greedy cover chose by largest gain, ties
// to the smallest document id (the URL key's term_token, quilts/cover.cpp), and gains only fall:
// that order, rebuilt here, is the order the sources were picked in.
ListedSources list_sources(const output::ResultReader& r, const QuiltedPages& q) {
  const auto& sg = schema::kQuiltSources;
  const auto src_page = r.read_strings(sg.column(&SourceRow::page));
  const auto src_url = r.read_strings(sg.column(&SourceRow::source));
  const auto src_gain = r.read_u64(sg.column(&SourceRow::grams_covered));
  std::map<std::string_view, std::pair<std::uint64_t, std::uint64_t>> by_page;  // page → [first, last)
  for (std::uint64_t i = 0; i < src_page.size();) {
    std::uint64_t j = i;
    while (j < src_page.size() && src_page[j] == src_page[i]) ++j;
    by_page.emplace(src_page[i], std::make_pair(i, j));
    i = j;
  }
  ListedSources out;
  std::vector<std::string> s_url;
  std::vector<std::uint64_t> s_rank, s_gain;
  std::vector<std::uint8_t> s_same;
  for (auto i : q.rows) {
    std::vector<std::uint64_t> mine;
    std::uint64_t same = 0;
    if (const auto it = by_page.find(q.urls[i]); it != by_page.end()) {
      std::vector<std::uint64_t> picked;
      for (auto k = it->second.first; k < it->second.second; ++k) picked.push_back(k);
      std::stable_sort(picked.begin(), picked.end(), [&](auto a, auto b) {
        if (src_gain[a] != src_gain[b]) return src_gain[a] > src_gain[b];
        return text::term_token(src_url[a]) < text::term_token(src_url[b]);
      });
      for (std::size_t n = 0; n < picked.size() && n < kSourcesListed; ++n) {
        const auto k = picked[n];
        const bool same_host = host_of(src_url[k]) == host_of(q.urls[i]);
        same += same_host ? 1 : 0;
        mine.push_back(s_url.size());
        s_url.push_back(src_url[k]);
        s_rank.push_back(n + 1);
        s_gain.push_back(src_gain[k]);
        s_same.push_back(same_host ? 1 : 0);
      }
    }
    out.refs.push_back(std::move(mine));
    out.same_host_sources.push_back(same);
    out.home.push_back(is_home_page(q.urls[i]) ? 1 : 0);
  }
  TableSpec& st = out.table;
  st.id = "qsources";
  st.total_rows = src_page.size();
  st.add_uint("rank", "picked", s_rank);
  st.add_text("source", "source", s_url, "url");
  st.add_uint("grams_covered", "grams it covers", s_gain);
  st.add_flag("same_host", "same host", s_same);
  return out;
}

TableSpec quilted_table(const ReportInput& in, const QuiltedPages& q, ListedSources& sources) {
  const auto& r = in.reader;
  const auto& pg = schema::kQuiltPages;
  const auto& rows = q.rows;
  TableSpec qt;
  qt.id = "quilted";
  qt.total_rows = q.candidates;
  qt.add_float("patchfrac", "patchfrac", gather(q.patchfrac, rows));
  qt.add_uint("grams", "grams", gather(r.read_u64(pg.column(&PageRow::grams)), rows));
  qt.add_uint("patch_grams", "patch grams", gather(q.patch, rows));
  qt.add_uint("sources", "sources", gather(r.read_u64(pg.column(&PageRow::sources)), rows));
  qt.add_uint("same_host", "sources on its host", sources.same_host_sources);
  qt.columns.back().title = "sources on the page's own host: a site quilted from itself is seldom a copy";
  qt.add_flag("home", "home page", sources.home);
  qt.columns.back().title = "a site's front page (host/, index.html): often quilted from its own posts";
  qt.add_text("url", "page", gather(q.urls, rows), "url");
  qt.add_refs("cover", "sources (click)", sources.refs, "qsources");
  qt.columns.back().title = "the page's sources in the order the greedy cover picked them (the first 10)";
  qt.sort_key = "patchfrac";
  qt.marks = RowMarks{"url", {"benign"}, "urls", "quilts-exclude"};
  qt.truncated_note = truncation_note(rows.size(), q.candidates, "quilted pages", "patchfrac");
  if (!qt.truncated_note.empty()) qt.inspect_command = inspect_command(in.path, q.candidates);
  return qt;
}

// The sweep: Table 1 and Fig. 3's curves (nothing without a sweep).
std::string add_sweep(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  const auto& sw = schema::kQuiltSweep;
  if (!r.has(sw.column(&SweepRow::m)) || r.rows(sw.column(&SweepRow::m)) == 0) return "";
  const auto u64 = [&](const schema::Attribute& a) { return schema::attribute_u64(r, a); };
  const auto f64 = [&](const schema::Attribute& a) { return schema::attribute_double(r, a); };
  std::vector<SweepRow> sweep(r.rows(sw.column(&SweepRow::m)));
  const auto k = r.read_u64(sw.column(&SweepRow::k)), m = r.read_u64(sw.column(&SweepRow::m)),
             c = r.read_u64(sw.column(&SweepRow::c)), pages = r.read_u64(sw.column(&SweepRow::pages)),
             nq = r.read_u64(sw.column(&SweepRow::quilted));
  const auto theta = r.read_f64(sw.column(&SweepRow::theta)), percent = r.read_f64(sw.column(&SweepRow::percent)),
             mean = r.read_f64(sw.column(&SweepRow::mean_sources));
  for (std::size_t i = 0; i < sweep.size(); ++i)
    sweep[i] = SweepRow{k[i], m[i], c[i], theta[i], pages[i], nq[i], percent[i], mean[i]};
  const SweepRow pivot{u64(attr::kQuiltK), u64(attr::kQuiltM), u64(attr::kQuiltC), f64(attr::kQuiltTheta)};
  TableSpec tt;
  tt.id = "qsweep";
  tt.total_rows = sweep.size();
  tt.add_uint("k", "k", k);
  tt.add_uint("m", "m", m);
  tt.add_uint("c", "c", c);
  tt.add_float("theta", "θ", theta);
  tt.add_uint("pages", "pages", pages);
  tt.add_uint("quilted", "quilted", nq);
  tt.add_float("percent", "% quilted", percent);
  tt.add_float("mean_sources", "mean sources", mean);
  tt.sort_key = "m";
  tt.sort_descending = false;
  std::string html = heading("Sweep (Najork 2012, Table 1)", 3) +
                     "<p class=\"hint\">Quilted pages can only grow with m, c and 1 − θ: each curve holds the other "
                     "parameters at the pivot.</p>" + table_slot("qsweep");
  page.add_table(tt);
  html += "<div class=\"grid2\">" + sweep_figure(sweep, pivot, 'm', "m") + sweep_figure(sweep, pivot, 'c', "c") +
          sweep_figure(sweep, pivot, 't', "θ") + "</div>";
  return html;
}

}  // namespace

void add_quilts_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  if (!r.has(schema::kQuilts) || !r.has(schema::kQuiltPages.column(&PageRow::url))) return;
  std::string html = heading("Quilts") + quilts_facts(r);

  // The quilted pages and their sources.
  const QuiltedPages quilted = list_quilted(in);
  ListedSources sources = list_sources(r, quilted);
  html += heading("Quilted pages", 3) +
          "<p class=\"hint\">Najork 2012's false positives are easy to spot here: a <b>home page</b> quilted from its "
          "own posts, sources all <b>on its host</b> or on the same organization's other domains, and translated "
          "pages quilted from their siblings. Mark such pages <b>benign</b>, then <b>Export marks</b> and rerun "
          "with <code>crd quilts … --exclude-pages FILE</code>.</p>" +
          table_slot("quilted");
  page.add_table(quilted_table(in, quilted, sources));
  page.add_table(std::move(sources.table));  // drawn only inside the quilted pages' rows (no slot of its own)

  html += add_sweep(in, page);
  page.add_section("quilts", "Quilts", html);
}

}  // namespace crd::report
