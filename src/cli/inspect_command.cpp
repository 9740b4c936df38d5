// crd inspect: a human summary of any crd result file (single process, no MPI job needed).
#include <algorithm>
#include <array>
#include <cstdio>
#include <numeric>

#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/base/printable.hpp"
#include "crd/output/result_summary.hpp"
#include "crd/output/schema.hpp"
#include "inspect_compare_hashing.hpp"
#include "inspect_merge.hpp"
#include "inspect_neardup.hpp"
#include "inspect_quilts.hpp"
#include "row_picker.hpp"
#include "text_format.hpp"

namespace crd::cli {
namespace {

namespace schema = output::schema;
namespace attr = output::schema::attr;
using detect::NeighborhoodRow;
using detect::PageRow;
using discover::LabelRow;
using output::NamedValueRow;

std::vector<std::uint64_t> first_rows(const std::vector<std::size_t>& order, std::size_t top) {
  return {order.begin(), order.begin() + static_cast<std::ptrdiff_t>(std::min(top, order.size()))};
}

void print_counters(const output::ResultReader& r) {
  // read_table refuses columns of other lengths (a value column one short would be read past).
  if (!r.has(schema::kCounters.column(&NamedValueRow::name))) return;
  std::printf("\ncounters:\n");
  for (const auto& c : output::read_table(r, schema::kCounters))
    std::printf("  %-40s %llu\n", printable(c.name).c_str(), static_cast<unsigned long long>(c.value));
  if (r.has(schema::kResources.column(&NamedValueRow::name))) {
    std::printf("\nresources (depend on the rank count):\n");
    for (const auto& c : output::read_table(r, schema::kResources))
      std::printf("  %-40s %llu\n", printable(c.name).c_str(), static_cast<unsigned long long>(c.value));
  }
  if (r.has(schema::kTimings.column(&output::TimingRow::phase))) {
    std::printf("\ntimings (s, slowest rank):\n");
    for (const auto& t : output::read_table(r, schema::kTimings))
      std::printf("  %-40s %.3f\n", printable(t.phase).c_str(), t.seconds);
  }
  const std::string error_files = schema::kErrors.column(&io::ReadError::file);
  if (r.has(error_files) && r.rows(error_files) > 0) {
    const auto errors = output::read_table(r, schema::kErrors, 0, 10);
    std::printf("\nread errors (%llu, first %zu):\n", static_cast<unsigned long long>(r.rows(error_files)),
                errors.size());
    for (const auto& e : errors)
      std::printf("  %s @%llu: %s\n", printable(e.file).c_str(), static_cast<unsigned long long>(e.offset),
                  printable(e.reason).c_str());
  }
}

// A labeled table's top rows by count (the tables are stored by count, except /labels by hash).
void print_table(const output::ResultReader& r, const output::Table<LabelRow>& table, const char* title,
                 std::size_t top) {
  const std::string group = table.group;
  if (!r.has(table.column(&LabelRow::hash))) return;
  const std::uint64_t n = r.rows(table.column(&LabelRow::hash));
  std::printf("\n%s: %llu labeled", title, static_cast<unsigned long long>(n));
  for (const char* a :
       {attr::kThreshold, attr::kTotal, attr::kDistinct, attr::kStopRemoved, attr::kTop, attr::kTopRemoved})
    if (r.has_attribute(group, a))
      std::printf(", %s %llu", a, static_cast<unsigned long long>(r.attribute_u64(group, a)));
  std::printf("\n");
  const auto counts = r.read_u64(table.column(&LabelRow::count));
  std::vector<std::size_t> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return counts[a] > counts[b]; });
  const std::vector<std::uint64_t> shown = first_rows(order, top);
  const bool samples = r.has(table.column(&LabelRow::sample));
  const std::string hash_column = table.column(&LabelRow::hash);
  const std::size_t width = counts.empty() ? 0 : r.read_matrix(hash_column, 0, 1).size();
  const auto hashes = pick_rows<std::uint8_t>(
      shown, n, [&](std::uint64_t first, std::uint64_t count) { return r.read_matrix(hash_column, first, count); },
      width);
  const auto urls = strings_at(r, table.column(&LabelRow::sample_url), shown);
  const auto texts = samples ? strings_at(r, table.column(&LabelRow::sample), shown) : std::vector<std::string>{};
  for (std::size_t k = 0; k < shown.size(); ++k) {
    std::printf("  %10llu× %s  %s\n", static_cast<unsigned long long>(counts[shown[k]]),
                hex_prefix(hashes[k], 12).c_str(), printable(urls[k]).c_str());
    if (samples) std::printf("             \"%s\"\n", one_line(texts[k], 100).c_str());
  }
}

void print_scores(const char* what, const output::ScoreSummary& s, std::uint64_t rows) {
  // Files written before the threshold rules were recorded lack the rule and clamp attributes.
  std::printf("  %s mean %.4f σ %.4f threshold %.4f%s%s, %llu of %llu flagged\n", what, s.mean, s.sigma, s.threshold,
              s.rule.empty() ? "" : (" (" + printable(s.rule) + ")").c_str(), s.clamped ? " CLAMPED below 1" : "",
              static_cast<unsigned long long>(s.flagged), static_cast<unsigned long long>(rows));
}

void print_detection(const output::ResultReader& r, std::size_t top, const InspectSettings& ranking) {
  const auto summary = output::read_detection_summary(r);
  if (!summary) return;
  const auto& pages = schema::kPages;
  const auto& hoods = schema::kNeighborhoods;
  std::printf("\ndetection: %llu labels, badness %s, join %s\n", static_cast<unsigned long long>(summary->label_count),
              printable(summary->badness).c_str(), printable(summary->join).c_str());
  print_scores("pages:        ", summary->pages, r.rows(pages.column(&PageRow::url)));
  print_scores("neighborhoods:", summary->neighborhoods, r.rows(hoods.column(&NeighborhoodRow::prefix)));

  const auto badness = r.read_f64(hoods.column(&NeighborhoodRow::badness));
  const auto hood_pages = r.read_u64(hoods.column(&NeighborhoodRow::pages));
  const auto hood_labeled = r.read_u64(hoods.column(&NeighborhoodRow::labeled));
  const auto hood_depth = r.read_u32(hoods.column(&NeighborhoodRow::depth));
  const auto hood_flagged = r.read_u8(hoods.column(&NeighborhoodRow::flagged));
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < badness.size(); ++i)
    if (ranking.depth < 0 || hood_depth[i] == static_cast<std::uint32_t>(ranking.depth)) order.push_back(i);
  // Key descending; rows are stored by prefix, so the stable sort breaks ties by prefix ascending
  // (analysis/crd_results.py rank_neighborhoods ranks the same way).
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (ranking.rank == RankKey::Labeled) return hood_labeled[a] > hood_labeled[b];
    if (ranking.rank == RankKey::Pages) return hood_pages[a] > hood_pages[b];
    return badness[a] > badness[b];
  });
  std::printf("\nneighborhoods by %s%s:\n", name_of(ranking.rank),
              ranking.depth < 0 ? "" : (" at depth " + std::to_string(ranking.depth)).c_str());
  const std::vector<std::uint64_t> shown_hoods = first_rows(order, top);
  const auto prefixes = strings_at(r, hoods.column(&NeighborhoodRow::prefix), shown_hoods);  // only the rows shown
  for (std::size_t k = 0; k < shown_hoods.size(); ++k) {
    const std::size_t i = shown_hoods[k];
    std::printf("  %s %.4f  %8llu labeled  %6llu pages  %s\n", hood_flagged[i] ? "FLAG" : "    ", badness[i],
                static_cast<unsigned long long>(hood_labeled[i]), static_cast<unsigned long long>(hood_pages[i]),
                printable(prefixes[k]).c_str());
  }

  const auto containment = r.read_f64(pages.column(&PageRow::containment));
  const auto labeled = r.read_u32(pages.column(&PageRow::labeled));
  const auto chunks = r.read_u32(pages.column(&PageRow::chunks));
  const auto offsets = r.read_u64(pages.offsets_column(&PageRow::label_ids));
  const auto flagged = r.read_u8(pages.column(&PageRow::flagged));
  order.assign(containment.size(), 0);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return containment[a] != containment[b] ? containment[a] > containment[b] : labeled[a] > labeled[b];
  });
  std::printf("\nworst pages (matched chunks):\n");
  // The rows shown, then their first three label ids, then those labels' samples: each column
  // read in blocks, not once per row.
  const std::vector<std::uint64_t> shown = first_rows(order, top);
  const auto urls = strings_at(r, pages.column(&PageRow::url), shown);
  std::vector<std::uint64_t> id_rows;
  std::vector<std::size_t> ids_from(shown.size() + 1, 0);
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const std::size_t i = shown[k];
    for (std::uint64_t at = offsets[i]; at < offsets[i] + std::min<std::uint64_t>(offsets[i + 1] - offsets[i], 3); ++at)
      id_rows.push_back(at);
    ids_from[k + 1] = id_rows.size();
  }
  const std::string ids_column = pages.column(&PageRow::label_ids);
  const auto ids = pick_rows<std::uint32_t>(id_rows, r.rows(ids_column), [&](std::uint64_t first, std::uint64_t count) {
    return r.read_u32(ids_column, first, count);
  });
  std::vector<std::uint64_t> label_rows;
  for (const auto& id : ids) label_rows.push_back(id.at(0));
  const auto label_samples =
      strings_at(r, schema::kDetectionLabels.column(&output::DetectedLabelRow::sample), label_rows);
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const std::size_t i = shown[k];
    std::printf("  %s %.3f  %u/%u  %s\n", flagged[i] ? "FLAG" : "    ", containment[i], labeled[i], chunks[i],
                printable(urls[k]).c_str());
    for (std::size_t j = ids_from[k]; j < ids_from[k + 1]; ++j)
      std::printf("        label %llu: \"%s\"\n", static_cast<unsigned long long>(label_rows[j]),
                  one_line(label_samples[j], 90).c_str());
  }
}

// detect --pairs K: each flagged page with the labeled documents it overlaps most (Campbell, Chen & Smith 2000's
// similarity ⟨first, second⟩), closest first.
void print_pairs(const output::ResultReader& r, std::size_t top) {
  using output::SimilarityPairRow;
  const auto& pairs = schema::kDetectionPairs;
  if (!r.has(pairs.column(&SimilarityPairRow::page))) return;
  const auto first = r.read_f64(pairs.column(&SimilarityPairRow::first));
  const auto second = r.read_f64(pairs.column(&SimilarityPairRow::second));
  const auto matching = r.read_u32(pairs.column(&SimilarityPairRow::matching));
  std::printf("\nsimilarity pairs (flagged page, labeled document): %zu\n", first.size());
  std::vector<std::size_t> order(first.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return first[a] != first[b] ? first[a] > first[b] : second[a] > second[b];
  });
  const std::vector<std::uint64_t> shown = first_rows(order, top);
  const auto page_names = strings_at(r, pairs.column(&SimilarityPairRow::page), shown);
  const auto documents = strings_at(r, pairs.column(&SimilarityPairRow::document), shown);
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const std::size_t i = shown[k];
    std::printf("  %.3f %.3f  %6u shared  %s  %s\n", first[i], second[i], matching[i], printable(page_names[k]).c_str(),
                printable(documents[k]).c_str());
  }
}

}  // namespace

int run_inspect(Invocation& in) {
  const InspectSettings& settings = in.settings.inspect;
  const std::uint64_t top = settings.top;
  for (const auto& path : in.inputs) {
    output::ResultReader r(path);
    const output::RunSummary run = output::read_run_summary(r);
    std::printf("%s: crd %s result, crd %s, %llu ranks, created %s\n", printable(path).c_str(),
                printable(run.command).c_str(), printable(run.crd_version).c_str(),
                static_cast<unsigned long long>(run.nranks), printable(run.created).c_str());
    std::printf("chunker: %s\n", printable(run.chunker).c_str());
    print_counters(r);
    print_table(r, schema::kDiscoveryChunks, "labeled chunks", top);
    print_table(r, schema::kDiscoveryFiles, "labeled files", top);
    print_table(r, schema::kLabels, "labels (informed)", top);
    print_detection(r, top, settings);
    print_pairs(r, top);
    print_neardup(r, top);
    print_quilts(r, top);
    print_compare_hashing(r);
    print_merge_inputs(r);
  }
  return 0;
}

}  // namespace crd::cli
