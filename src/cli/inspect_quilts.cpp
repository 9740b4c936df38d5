// crd inspect for crd quilts results: the pivot's counts, the sweep (Najork 2012, Table 1's shape) and
// the quilted pages with the most sources.
#include "inspect_quilts.hpp"

#include <algorithm>
#include <cstdio>

#include "crd/base/printable.hpp"
#include "crd/output/schema.hpp"

namespace crd::cli {

void print_quilts(const output::ResultReader& r, std::size_t top) {
  namespace schema = output::schema;
  namespace attr = output::schema::attr;
  if (!r.has(schema::kQuilts)) return;
  const auto u64 = [&](const schema::Attribute& a) { return static_cast<unsigned long long>(schema::attribute_u64(r, a)); };
  std::printf("\nquilted pages (k %llu, m %llu, c %llu, θ %g, φ %g, foreign-sourced %s): %llu of %llu pages\n",
              u64(attr::kQuiltK), u64(attr::kQuiltM), u64(attr::kQuiltC), schema::attribute_double(r, attr::kQuiltTheta),
              schema::attribute_double(r, attr::kQuiltMinSourceShare),
              printable(schema::attribute_string(r, attr::kQuiltForeign)).c_str(), u64(attr::kQuiltQuiltedCount),
              u64(attr::kQuiltPageCount));
  const auto sweep = output::read_table(r, schema::kQuiltSweep);
  if (sweep.size() > 1) {
    std::printf("  sweep:     m     c      θ   quilted        %%   mean sources\n");
    for (const auto& s : sweep)
      std::printf("  %10llu %5llu %6.2f %9llu %8.3f %14.2f\n", static_cast<unsigned long long>(s.m),
                  static_cast<unsigned long long>(s.c), s.theta, static_cast<unsigned long long>(s.quilted), s.percent,
                  s.mean_sources);
  }
  auto pages = output::read_table(r, schema::kQuiltPages);
  std::erase_if(pages, [](const quilts::PageRow& p) { return p.quilted == 0; });
  std::stable_sort(pages.begin(), pages.end(),
                   [](const quilts::PageRow& a, const quilts::PageRow& b) { return a.sources > b.sources; });
  if (pages.size() > top) pages.resize(top);
  if (!pages.empty()) std::printf("  most sources:  sources  patchfrac  page\n");
  for (const auto& p : pages)
    std::printf("  %22llu %10.3f  %s\n", static_cast<unsigned long long>(p.sources), p.patchfrac,
                printable(p.url).c_str());
}

}  // namespace crd::cli
