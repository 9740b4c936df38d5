// crd inspect for crd merge results: the inputs that were summed, with their counts.
#include "inspect_merge.hpp"

#include <cstdio>

#include "crd/base/printable.hpp"
#include "crd/output/schema.hpp"
#include "crd/output/table_io.hpp"

namespace crd::cli {

void print_merge_inputs(const output::ResultReader& r) {
  const auto& g = output::schema::kMergeInputs;
  if (!r.has(g.column(&output::MergeInputRow::path))) return;
  const auto rows = output::read_table(r, g);
  std::printf("\nmerged inputs (%zu; the counters above are their sums):\n", rows.size());
  std::printf("  %12s %12s %16s %16s  %s\n", "documents", "records", "distinct chunks", "distinct files", "input");
  for (const auto& row : rows)
    std::printf("  %12llu %12llu %16llu %16llu  %s (%s, %s)\n", static_cast<unsigned long long>(row.documents),
                static_cast<unsigned long long>(row.records), static_cast<unsigned long long>(row.distinct_chunks),
                static_cast<unsigned long long>(row.distinct_files), printable(row.path).c_str(),
                printable(row.command).c_str(), printable(row.created).c_str());
}

}  // namespace crd::cli
