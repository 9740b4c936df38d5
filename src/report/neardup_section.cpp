// The near-duplicates section (/neardup, crd neardup): the pairs' B- and C-similarities with the
// thresholds drawn, the same-site / cross-site split (Henzinger 2006 reports both), the largest clusters
// of near-duplicate pages, a pairs table, and a pages table whose rows a reviewer marks as "the
// original" or "not a copy" and exports as CSV.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string_view>
#include <unordered_map>

#include "crd/output/schema.hpp"
#include "report_page.hpp"
#include "sections.hpp"
#include "svg_chart.hpp"

namespace crd::report {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;
using neardup::IdentityRow;
using neardup::PairRow;

constexpr std::size_t kMembersListed = 20;  // pages listed per cluster (the size column counts all)

std::uint32_t config_u32(const output::ResultReader& r, const std::string& name, std::uint32_t fallback) {
  const std::string v = config_value(r, name);
  if (v.empty() || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }) || v.size() > 9)
    return fallback;
  return static_cast<std::uint32_t>(std::stoul(v));
}

// Union–find over page indices: the clusters are the connected components of the pairs and of
// the identical pages' links to their representatives.
class Components {
 public:
  std::uint64_t id(const std::string& page) {
    const auto [it, added] = index_.emplace(page, parent_.size());
    if (added) {
      parent_.push_back(parent_.size());
      names_.push_back(&it->first);
    }
    return it->second;
  }
  void join(std::uint64_t a, std::uint64_t b) {
    a = root(a);
    b = root(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }
  std::uint64_t root(std::uint64_t a) {
    while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
    return a;
  }
  // root() without shortening the path, for a finished forest.
  std::uint64_t root_of(std::uint64_t a) const {
    while (parent_[a] != a) a = parent_[a];
    return a;
  }
  std::uint64_t size() const { return parent_.size(); }
  const std::string& name(std::uint64_t i) const { return *names_[i]; }

 private:
  std::unordered_map<std::string, std::uint64_t> index_;  // node-based: names_ may point at its keys
  std::vector<std::uint64_t> parent_;
  std::vector<const std::string*> names_;
};

std::string similarity_figure(const std::vector<std::uint32_t>& values, const std::string& title,
                              const std::string& x_label, double lo, double hi, int bins, std::vector<Marker> markers,
                              bool label_bins = false) {
  UnitHistogram h;
  h.label_bins = label_bins;
  h.title = title;
  h.x_label = x_label;
  for (auto v : values) h.values.push_back(v);
  h.x_min = lo;
  h.x_max = hi;
  h.bins = bins;
  h.markers = std::move(markers);
  return "<figure>" + render_unit_histogram(h) + "</figure>";
}

// The thresholds the run used (from its recorded configuration; the defaults when absent).
struct NeardupRules {
  std::string method;
  std::uint32_t min_b, min_c, combined_c, supershingles, bits;
};

NeardupRules neardup_rules(const output::ResultReader& r) {
  return {schema::attribute_string(r, attr::kNeardupMethod),
          config_u32(r, "min-b-similarity", 2),
          config_u32(r, "min-c-similarity", 372),
          config_u32(r, "combined-c-similarity", 355),
          config_u32(r, "supershingles", 6),
          config_u32(r, "simhash-bits", 384)};
}

// The method, its rule and the counts, and the two similarity histograms with the thresholds drawn.
std::string neardup_summary(const output::ResultReader& r, const NeardupRules& k,
                            const std::vector<std::uint32_t>& b_sim, const std::vector<std::uint32_t>& c_sim) {
  const auto u64 = [&](const schema::Attribute& a) { return schema::attribute_u64(r, a); };
  const std::uint64_t nidentical = r.rows(schema::kNeardupIdentical.column(&IdentityRow::page));
  std::string rule =
      k.method == "minhash" ? "B-similar: at least " + std::to_string(k.min_b) + " of " +
                                  std::to_string(k.supershingles) + " supershingles agree"
      : k.method == "simhash"
          ? "C-similar: at least " + std::to_string(k.min_c) + " of " + std::to_string(k.bits) + " bits agree"
          : "combined: B-similar (≥ " + std::to_string(k.min_b) + " supershingles) and at least " +
                std::to_string(k.combined_c) + " of " + std::to_string(k.bits) + " bits agree";
  std::string html =
      facts({{"method", k.method},
             {"rule", rule},
             {"pages", grouped(u64(attr::kNeardupPages))},
             {"distinct token sequences", grouped(u64(attr::kNeardupIdentitySets))},
             {"pages identical to another", grouped(nidentical)},
             {"near-duplicate pairs", grouped(u64(attr::kNeardupPairCount))},
             {"same site / different sites",
              grouped(u64(attr::kNeardupSameSite)) + " / " + grouped(u64(attr::kNeardupDifferentSite))},
             {"buckets over --max-bucket (pairs not compared)",
              grouped(u64(attr::kNeardupCappedBuckets)) + " (" + grouped(u64(attr::kNeardupCappedPairs)) + ")"}});
  if (u64(attr::kNeardupCappedPairs) > 0)
    html +=
        "<p class=\"hint warn\">Some buckets held more pages than --max-bucket: their pairs were not compared, "
        "so pairs may be missing; their pages still join the clusters (docs/neardup.md).</p>";

  // Similarities: B over its supershingles, C near the top of its bits, thresholds drawn.
  std::uint32_t c_lo = std::min(k.min_c, k.combined_c);
  for (auto c : c_sim) c_lo = std::min(c_lo, c);
  c_lo = c_lo > 4 ? c_lo - 4 : 0;
  html += "<div class=\"grid2\">" +
          similarity_figure(b_sim, "Pairs by B-similarity (agreeing supershingles)", "B-similarity", -0.5,
                            k.supershingles + 0.5, static_cast<int>(k.supershingles) + 1,
                            {{k.min_b - 0.5, "B ≥ " + std::to_string(k.min_b)}}, true) +
          similarity_figure(c_sim, "Pairs by C-similarity (agreeing simhash bits)", "C-similarity", c_lo, k.bits + 1.0,
                            static_cast<int>(std::min<std::uint32_t>(k.bits + 1 - c_lo, 96)),
                            {{k.combined_c - 0.0, "combined ≥ " + std::to_string(k.combined_c)},
                             {k.min_c - 0.0, "C ≥ " + std::to_string(k.min_c)}}) +
          "</div>";
  return html;
}

// Clusters as the result gives them (/neardup/clusters: each page with its cluster's
// representative, complete even where buckets were capped), or, in a result written before crd
// wrote them, the connected components of the pairs and identical pages; and each page's pair count.
// Either way a cluster's representative is its smallest page key, the first of its members.
struct PairGraph {
  Components comp;
  std::vector<std::uint64_t> degree;                            // pairs per page
  std::map<std::uint64_t, std::vector<std::uint64_t>> members;  // root → pages, in name order
  std::vector<const std::vector<std::uint64_t>*> clusters;      // members' lists, by root
};

void build_pair_graph(const output::ResultReader& r, const std::vector<std::string>& page_a,
                      const std::vector<std::string>& page_b, PairGraph& g) {
  Components& comp = g.comp;
  const auto bump = [&](std::uint64_t i) {
    if (g.degree.size() <= i) g.degree.resize(i + 1, 0);
    ++g.degree[i];
  };
  const bool given = r.has(schema::kNeardupClusters.column(&neardup::ClusterRow::page));
  for (std::uint64_t i = 0; i < page_a.size(); ++i) {
    const auto a = comp.id(page_a[i]), b = comp.id(page_b[i]);
    bump(a);
    bump(b);
    if (!given) comp.join(a, b);
  }
  if (given) {
    const auto page = r.read_strings(schema::kNeardupClusters.column(&neardup::ClusterRow::page));
    const auto cluster = r.read_strings(schema::kNeardupClusters.column(&neardup::ClusterRow::cluster));
    for (std::uint64_t i = 0; i < page.size() && i < cluster.size(); ++i)
      comp.join(comp.id(page[i]), comp.id(cluster[i]));
  } else {
    const auto ident_page = r.read_strings(schema::kNeardupIdentical.column(&IdentityRow::page));
    const auto ident_rep = r.read_strings(schema::kNeardupIdentical.column(&IdentityRow::representative));
    for (std::uint64_t i = 0; i < ident_page.size() && i < ident_rep.size(); ++i)
      comp.join(comp.id(ident_page[i]), comp.id(ident_rep[i]));
  }
  g.degree.resize(comp.size(), 0);
  for (std::uint64_t i = 0; i < comp.size(); ++i) g.members[comp.root(i)].push_back(i);
  for (auto& [root, list] : g.members) {
    std::sort(list.begin(), list.end(), [&](auto a, auto b) { return comp.name(a) < comp.name(b); });
    g.clusters.push_back(&list);
  }
}

TableSpec clusters_table(const ReportInput& in, const PairGraph& g) {
  const auto& clusters = g.clusters;
  const auto cluster_rows = top_rows(clusters.size(), in.options.top,
                                     [&](auto a, auto b) { return clusters[a]->size() > clusters[b]->size(); });
  TableSpec ct;
  ct.id = "ndclusters";
  ct.total_rows = clusters.size();
  std::vector<std::uint64_t> sizes, sites;
  std::vector<std::string> kept;
  std::vector<std::vector<std::string>> listed;
  for (auto k : cluster_rows) {
    const auto& list = *clusters[k];
    sizes.push_back(list.size());
    std::set<std::string_view> hosts;
    for (auto i : list) hosts.insert(host_of(g.comp.name(i)));
    sites.push_back(hosts.size());
    kept.push_back(g.comp.name(list.front()));
    std::vector<std::string> names;
    for (std::size_t j = 0; j < list.size() && j < kMembersListed; ++j)
      names.push_back(g.comp.name(list[j]) + (j == 0 ? " (representative, kept)" : ""));
    listed.push_back(std::move(names));
  }
  ct.add_uint("pages", "pages", sizes);
  ct.add_uint("sites", "sites", sites);
  ct.add_text("representative", "representative: the page to keep (smallest URL key)", kept, "url");
  ct.add_text_lists("members", "pages (at most 20 listed)", listed);
  ct.sort_key = "pages";
  ct.truncated_note = truncation_note(cluster_rows.size(), clusters.size(), "clusters", "size");
  if (!ct.truncated_note.empty()) ct.inspect_command = inspect_command(in.path, clusters.size());
  return ct;
}

// Pairs: the closest first (C, then B).
TableSpec pairs_table(const ReportInput& in, const std::vector<std::string>& page_a,
                      const std::vector<std::string>& page_b, const std::vector<std::uint32_t>& b_sim,
                      const std::vector<std::uint32_t>& c_sim) {
  const std::uint64_t npairs = b_sim.size();
  const auto pair_rows = top_rows(npairs, in.options.top, [&](auto a, auto b) {
    return c_sim[a] != c_sim[b] ? c_sim[a] > c_sim[b] : b_sim[a] > b_sim[b];
  });
  TableSpec pt;
  pt.id = "ndpairs";
  pt.total_rows = npairs;
  pt.add_text("page_a", "page A", gather(page_a, pair_rows), "url");
  pt.add_text("page_b", "page B", gather(page_b, pair_rows), "url");
  std::vector<std::uint64_t> bs, cs;
  for (auto i : pair_rows) {
    bs.push_back(b_sim[i]);
    cs.push_back(c_sim[i]);
  }
  pt.add_uint("b_sim", "B-similarity", bs);
  pt.add_uint("c_sim", "C-similarity", cs);
  pt.add_flag("same_site", "same site",
              gather(in.reader.read_u8(schema::kNeardupPairs.column(&PairRow::same_site)), pair_rows));
  // The Jaccard check's estimate, in results of --min-jaccard only.
  const std::string jaccard_column = schema::kNeardupPairs.column(&PairRow::jaccard);
  if (in.reader.has(jaccard_column)) {
    const auto jaccard = in.reader.read_f64(jaccard_column);
    std::vector<double> js;
    for (auto i : pair_rows) js.push_back(jaccard[i]);
    pt.add_float("jaccard", "estimated Jaccard", js);
  }
  pt.sort_key = "c_sim";
  pt.truncated_note = truncation_note(pair_rows.size(), npairs, "pairs", "C- then B-similarity");
  if (!pt.truncated_note.empty()) pt.inspect_command = inspect_command(in.path, npairs);
  return pt;
}

// Pages in pairs, for review: mark the original of a cluster, or a page that is not a copy.
TableSpec review_table(const ReportInput& in, const PairGraph& g) {
  const Components& comp = g.comp;
  const auto page_rows =
      top_rows(comp.size(), in.options.top, [&](auto a, auto b) { return g.degree[a] > g.degree[b]; });
  TableSpec nt;
  nt.id = "ndpages";
  nt.total_rows = comp.size();
  std::vector<std::string> urls;
  std::vector<std::uint64_t> degrees, cluster_size;
  for (auto i : page_rows) {
    urls.push_back(comp.name(i));
    degrees.push_back(g.degree[i]);
    cluster_size.push_back(g.members.at(comp.root_of(i)).size());
  }
  nt.add_text("url", "page", urls, "url");
  nt.add_uint("pairs", "near-duplicate pairs", degrees);
  nt.add_uint("cluster", "cluster size", cluster_size);
  nt.sort_key = "pairs";
  nt.marks = RowMarks{"url", {"the original", "not a copy"}, "csv", "neardup-marks"};
  nt.truncated_note = truncation_note(page_rows.size(), comp.size(), "pages", "pairs");
  if (!nt.truncated_note.empty()) nt.inspect_command = inspect_command(in.path, comp.size());
  return nt;
}

}  // namespace

void add_neardup_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  if (!r.has(schema::kNeardup)) return;
  const auto& pairs = schema::kNeardupPairs;
  const auto b_sim = r.read_u32(pairs.column(&PairRow::b_sim));
  const auto c_sim = r.read_u32(pairs.column(&PairRow::c_sim));
  std::string html = heading("Near-duplicates") + neardup_summary(r, neardup_rules(r), b_sim, c_sim);

  const auto page_a = r.read_strings(pairs.column(&PairRow::page_a));
  const auto page_b = r.read_strings(pairs.column(&PairRow::page_b));
  PairGraph graph;
  build_pair_graph(r, page_a, page_b, graph);
  html += heading("Largest clusters", 3) +
          "<p class=\"hint\">A cluster is a connected set of near-duplicate and identical pages. Many sites in one "
          "cluster is copying across sites; one site is usually a template or a mirror within the site.</p>" +
          table_slot("ndclusters");
  page.add_table(clusters_table(in, graph));

  html += heading("Pairs", 3) + table_slot("ndpairs");
  page.add_table(pairs_table(in, page_a, page_b, b_sim, c_sim));

  html += heading("Pages to review", 3) +
          "<p class=\"hint\">Mark the page each cluster was copied from as <b>the original</b>, and pages that "
          "only look alike (templates, listings) as <b>not a copy</b>; <b>Export marks</b> downloads them as "
          "CSV (<code>url,mark</code>). Marks are kept in this browser for this result.</p>" +
          table_slot("ndpages");
  page.add_table(review_table(in, graph));
  page.add_section("neardup", "Near-duplicates", html);
}

}  // namespace crd::report
