// crd inspect for crd neardup results: counts, the B-similarity split, the degree tail, the largest
// clusters with their representatives, top pairs.
#include "inspect_neardup.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

#include "crd/base/printable.hpp"
#include "crd/output/schema.hpp"
#include "row_picker.hpp"

namespace crd::cli {
namespace {

// The clusters (a result written before crd wrote them has none): how many, and the largest with
// their representatives, the pages to keep.
void print_clusters(const output::ResultReader& r, std::size_t top) {
  namespace schema = output::schema;
  namespace attr = output::schema::attr;
  using neardup::RepresentativeRow;
  const auto& reps = schema::kNeardupRepresentatives;
  if (!r.has(reps.column(&RepresentativeRow::representative))) return;
  std::printf("  clusters: %llu of %llu pages (the page kept: the %s; %llu capped-bucket entries unlinked)\n",
              static_cast<unsigned long long>(schema::attribute_u64(r, attr::kNeardupClusterCount)),
              static_cast<unsigned long long>(schema::attribute_u64(r, attr::kNeardupClusteredPages)),
              printable(schema::attribute_string(r, attr::kNeardupRepresentativeRule)).c_str(),
              static_cast<unsigned long long>(schema::attribute_u64(r, attr::kNeardupUnlinkedEntries)));
  if (schema::attribute_u64(r, attr::kNeardupPairsNotKept) > 0)
    std::printf("  pairs left out by --max-pairs: %llu (the clusters are complete)\n",
                static_cast<unsigned long long>(schema::attribute_u64(r, attr::kNeardupPairsNotKept)));
  const auto sizes = r.read_u64(reps.column(&RepresentativeRow::pages));
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  if (order.empty()) return;
  std::printf("\nlargest clusters (pages, representative: the page to keep):\n");
  for (std::size_t k = 0; k < std::min(top, order.size()); ++k) {
    const std::size_t i = order[k];
    std::printf("  %6llu  %s\n", static_cast<unsigned long long>(sizes[i]),
                printable(r.read_strings(reps.column(&RepresentativeRow::representative), i, 1).at(0)).c_str());
  }
}

}  // namespace

void print_neardup(const output::ResultReader& r, std::size_t top) {
  namespace schema = output::schema;
  namespace attr = output::schema::attr;
  using neardup::PairRow;
  if (!r.has(schema::kNeardup)) return;
  const auto u64 = [&](const schema::Attribute& a) {
    return static_cast<unsigned long long>(schema::attribute_u64(r, a));
  };
  std::printf("\nnear-duplicates (%s): %llu pages, %llu distinct token sequences, %llu identical pages\n",
              printable(schema::attribute_string(r, attr::kNeardupMethod)).c_str(), u64(attr::kNeardupPages),
              u64(attr::kNeardupIdentitySets),
              static_cast<unsigned long long>(r.rows(schema::kNeardupIdentical.column(&neardup::IdentityRow::page))));
  std::printf("  pairs: %llu (same site %llu, different sites %llu)\n", u64(attr::kNeardupPairCount),
              u64(attr::kNeardupSameSite), u64(attr::kNeardupDifferentSite));
  std::printf("  buckets over --max-bucket: %llu (%llu entries, %llu pairs not compared)\n",
              u64(attr::kNeardupCappedBuckets), u64(attr::kNeardupCappedPages), u64(attr::kNeardupCappedPairs));

  const auto& pairs = schema::kNeardupPairs;
  const auto b_sim = r.read_u32(pairs.column(&PairRow::b_sim));
  const auto c_sim = r.read_u32(pairs.column(&PairRow::c_sim));
  std::map<std::uint32_t, std::uint64_t> by_b;
  for (const auto b : b_sim) ++by_b[b];
  std::printf("  pairs by B-similarity:");
  for (const auto& [b, n] : by_b) std::printf(" %u: %llu", b, static_cast<unsigned long long>(n));
  std::printf("\n");
  const auto degrees = r.read_u64(schema::kNeardupDegree.column(&discover::HistogramRow::occurrences));
  if (!degrees.empty()) std::printf("  largest degree: %llu\n", static_cast<unsigned long long>(degrees.back()));
  print_clusters(r, top);

  std::vector<std::size_t> order(b_sim.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return c_sim[a] != c_sim[b] ? c_sim[a] > c_sim[b] : b_sim[a] > b_sim[b];
  });
  std::printf("\nclosest pairs (C-similarity, B-similarity):\n");
  const std::vector<std::uint64_t> shown(order.begin(),
                                         order.begin() + static_cast<std::ptrdiff_t>(std::min(top, order.size())));
  const auto page_a = strings_at(r, pairs.column(&PairRow::page_a), shown);  // in blocks, not a read per row
  const auto page_b = strings_at(r, pairs.column(&PairRow::page_b), shown);
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const std::size_t i = shown[k];
    std::printf("  %3u %u  %s  %s\n", c_sim[i], b_sim[i], printable(page_a[k]).c_str(), printable(page_b[k]).c_str());
  }
}

}  // namespace crd::cli
