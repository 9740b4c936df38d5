// The merged-results section (/merge, crd merge): which inputs were summed, with each one's counts.
#include "crd/output/schema.hpp"
#include "crd/output/table_io.hpp"
#include "report_page.hpp"
#include "sections.hpp"

namespace crd::report {

void add_merge_section(const ReportInput& in, ReportPage& page) {
  const auto& r = in.reader;
  using output::MergeInputRow;
  const auto& g = output::schema::kMergeInputs;
  if (!r.has(g.column(&MergeInputRow::path))) return;
  const auto rows = output::read_table(r, g);
  TableSpec t;
  t.id = "mergeinputs";
  t.total_rows = rows.size();
  std::vector<std::string> path, command, created;
  std::vector<std::uint64_t> documents, records, chunks, distinct_chunks, distinct_files, order;
  for (const auto& row : rows) {
    order.push_back(order.size() + 1);
    path.push_back(row.path);
    command.push_back(row.command);
    created.push_back(row.created);
    documents.push_back(row.documents);
    records.push_back(row.records);
    chunks.push_back(row.chunks);
    distinct_chunks.push_back(row.distinct_chunks);
    distinct_files.push_back(row.distinct_files);
  }
  t.add_uint("order", "#", order);
  t.add_text("path", "input", path, "url");
  t.add_text("command", "its command", command);
  t.add_text("created", "created", created);
  t.add_uint("documents", "documents", documents);
  t.add_uint("records", "records", records);
  t.add_uint("chunks", "chunks counted", chunks);
  t.add_uint("distinct_chunks", "distinct chunks", distinct_chunks);
  t.add_uint("distinct_files", "distinct files", distinct_files);
  t.sort_key = "order";
  t.sort_descending = false;
  page.add_table(t);
  page.add_section("merge", "Merged inputs",
                   heading("Merged inputs") +
                       "<p class=\"hint\">This result sums the count tables of these results (docs/merge.md); its "
                       "counters are their sums.</p>" +
                       table_slot("mergeinputs"));
}

}  // namespace crd::report
