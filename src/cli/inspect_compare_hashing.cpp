// crd inspect for crd compare-hashing results: the counts and each method's headline row, with
// the extrapolated false positives marked as an estimate.
#include "inspect_compare_hashing.hpp"

#include <cstdio>

#include "crd/base/printable.hpp"
#include "crd/output/schema.hpp"

namespace crd::cli {

void print_compare_hashing(const output::ResultReader& r) {
  namespace schema = output::schema;
  namespace attr = output::schema::attr;
  using output::ConfusionRow;
  const auto& g = schema::kConfusion;
  if (!r.has(schema::kCompareHashing) || !r.has(g.column(&ConfusionRow::method))) return;
  const auto u64 = [&](const schema::Attribute& a) { return static_cast<unsigned long long>(schema::attribute_u64(r, a)); };
  std::printf("\nexact hashing against LSH: %llu pages, %llu positives, %llu labels, %llu chunks compared\n",
              u64(attr::kComparePages), u64(attr::kComparePositives), u64(attr::kCompareLabels),
              u64(attr::kCompareChunks));
  const auto method = r.read_strings(g.column(&ConfusionRow::method));
  const auto rule = r.read_strings(g.column(&ConfusionRow::rule));
  const auto threshold = r.read_f64(g.column(&ConfusionRow::threshold));
  const auto primary = r.read_u8(g.column(&ConfusionRow::primary));
  const auto tp = r.read_u64(g.column(&ConfusionRow::tp)), fp = r.read_u64(g.column(&ConfusionRow::fp)),
             fn = r.read_u64(g.column(&ConfusionRow::fn)), tn = r.read_u64(g.column(&ConfusionRow::tn));
  const auto fpr = r.read_f64(g.column(&ConfusionRow::fpr));
  const auto extrapolated = r.read_f64(g.column(&ConfusionRow::extrapolated_fp));
  std::printf("  headline thresholds (%zu rows in all; FP at %.3g pages is an extrapolation, not a measurement):\n",
              method.size(), schema::attribute_double(r, attr::kCompareExtrapolatePages));
  std::printf("  %-9s %-18s %10s %8s %8s %8s %8s %8s %14s\n", "method", "rule", "threshold", "TP", "FP", "FN", "TN",
              "FPR", "FP (extrap.)");
  for (std::size_t i = 0; i < method.size(); ++i) {
    if (!primary[i]) continue;
    std::printf("  %-9s %-18s %10g %8llu %8llu %8llu %8llu %8.4f %14.4g\n", printable(method[i]).c_str(),
                printable(rule[i]).c_str(), threshold[i], static_cast<unsigned long long>(tp[i]),
                static_cast<unsigned long long>(fp[i]), static_cast<unsigned long long>(fn[i]),
                static_cast<unsigned long long>(tn[i]), fpr[i], extrapolated[i]);
  }
}

}  // namespace crd::cli
