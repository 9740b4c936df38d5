// crd inspect: a human summary of any crd result file (single process, no MPI job needed).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <numeric>

#include "crd/cli/commands.hpp"
#include "crd/cli/option_groups.hpp"
#include "crd/cli/option_values.hpp"
#include "crd/cli/text_format.hpp"
#include "crd/core/error.hpp"
#include "crd/core/printable.hpp"
#include "crd/output/result_reader.hpp"

namespace crd::cli {
namespace {

void print_counters(const output::ResultReader& r) {
  if (!r.has("/run/counters/name")) return;
  const auto names = r.read_strings("/run/counters/name");
  const auto values = r.read_u64("/run/counters/value");
  std::printf("\ncounters:\n");
  for (std::size_t i = 0; i < names.size(); ++i) std::printf("  %-40s %llu\n", printable(names[i]).c_str(), static_cast<unsigned long long>(values[i]));
  if (r.has("/run/resources/name")) {
    const auto rnames = r.read_strings("/run/resources/name");
    const auto rvalues = r.read_u64("/run/resources/value");
    std::printf("\nresources (depend on the rank count):\n");
    for (std::size_t i = 0; i < rnames.size(); ++i)
      std::printf("  %-40s %llu\n", printable(rnames[i]).c_str(), static_cast<unsigned long long>(rvalues[i]));
  }
  if (r.has("/run/timings/phase")) {
    const auto phases = r.read_strings("/run/timings/phase");
    const auto seconds = r.read_f64("/run/timings/seconds");
    std::printf("\ntimings (s, slowest rank):\n");
    for (std::size_t i = 0; i < phases.size(); ++i) std::printf("  %-40s %.3f\n", printable(phases[i]).c_str(), seconds[i]);
  }
  if (r.has("/run/errors/file") && r.rows("/run/errors/file") > 0) {
    const auto files = r.read_strings("/run/errors/file", 0, 10);
    const auto offsets = r.read_u64("/run/errors/offset", 0, 10);
    const auto reasons = r.read_strings("/run/errors/reason", 0, 10);
    std::printf("\nread errors (%llu, first %zu):\n", static_cast<unsigned long long>(r.rows("/run/errors/file")), files.size());
    for (std::size_t i = 0; i < files.size(); ++i)
      std::printf("  %s @%llu: %s\n", printable(files[i]).c_str(), static_cast<unsigned long long>(offsets[i]),
                  printable(reasons[i]).c_str());
  }
}

// A labeled table's top rows by count (the tables are stored by count, except /labels by hash).
void print_table(const output::ResultReader& r, const std::string& group, const char* title, std::size_t top) {
  if (!r.has(group + "/hash")) return;
  const std::uint64_t n = r.rows(group + "/hash");
  std::printf("\n%s: %llu labeled", title, static_cast<unsigned long long>(n));
  for (const char* a : {"threshold", "total", "distinct", "stop_removed"})
    if (r.has_attribute(group, a)) std::printf(", %s %llu", a, static_cast<unsigned long long>(r.attribute_u64(group, a)));
  std::printf("\n");
  const auto counts = r.read_u64(group + "/count");
  std::vector<std::size_t> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return counts[a] > counts[b]; });
  order.resize(std::min(order.size(), top));
  const bool samples = r.has(group + "/sample");
  for (std::size_t i : order) {
    const auto hash = r.read_matrix(group + "/hash", i, 1);
    const auto url = r.read_strings(group + "/sample_url", i, 1);
    std::printf("  %10llu× %s  %s\n", static_cast<unsigned long long>(counts[i]), hex_prefix(hash, 12).c_str(),
                url.empty() ? "" : printable(url[0]).c_str());
    if (samples) std::printf("             \"%s\"\n", one_line(r.read_strings(group + "/sample", i, 1).at(0), 100).c_str());
  }
}

void print_detection(const output::ResultReader& r, std::size_t top) {
  if (!r.has("/detection")) return;
  const std::string g = "/detection";
  std::printf("\ndetection: %llu labels, badness %s, join %s\n", static_cast<unsigned long long>(r.attribute_u64(g, "labels")),
              printable(r.attribute_string(g, "badness_mode")).c_str(), printable(r.attribute_string(g, "join_mode")).c_str());
  std::printf("  pages:         mean %.4f σ %.4f threshold %.4f, %llu of %llu flagged\n", r.attribute_double(g, "page_mean"),
              r.attribute_double(g, "page_sigma"), r.attribute_double(g, "page_threshold"),
              static_cast<unsigned long long>(r.attribute_u64(g, "pages_flagged")),
              static_cast<unsigned long long>(r.rows(g + "/pages/url")));
  std::printf("  neighborhoods: mean %.4f σ %.4f threshold %.4f, %llu of %llu flagged\n",
              r.attribute_double(g, "neighborhood_mean"), r.attribute_double(g, "neighborhood_sigma"),
              r.attribute_double(g, "neighborhood_threshold"),
              static_cast<unsigned long long>(r.attribute_u64(g, "neighborhoods_flagged")),
              static_cast<unsigned long long>(r.rows(g + "/neighborhoods/prefix")));

  const auto badness = r.read_f64(g + "/neighborhoods/badness");
  const auto hood_pages = r.read_u64(g + "/neighborhoods/pages");
  const auto hood_flagged = r.read_u8(g + "/neighborhoods/flagged");
  std::vector<std::size_t> order(badness.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return badness[a] > badness[b]; });
  std::printf("\nworst neighborhoods:\n");
  for (std::size_t k = 0; k < std::min(top, order.size()); ++k) {
    const std::size_t i = order[k];
    std::printf("  %s %.4f  %6llu pages  %s\n", hood_flagged[i] ? "FLAG" : "    ", badness[i],
                static_cast<unsigned long long>(hood_pages[i]),
                printable(r.read_strings(g + "/neighborhoods/prefix", i, 1).at(0)).c_str());  // only the rows shown
  }

  const auto containment = r.read_f64(g + "/pages/containment");
  const auto labeled = r.read_u32(g + "/pages/labeled");
  const auto chunks = r.read_u32(g + "/pages/chunks");
  const auto offsets = r.read_u64(g + "/pages/label_ids_offsets");
  const auto flagged = r.read_u8(g + "/pages/flagged");
  order.assign(containment.size(), 0);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return containment[a] != containment[b] ? containment[a] > containment[b] : labeled[a] > labeled[b];
  });
  std::printf("\nworst pages (matched chunks):\n");
  for (std::size_t k = 0; k < std::min(top, order.size()); ++k) {
    const std::size_t i = order[k];
    std::printf("  %s %.3f  %u/%u  %s\n", flagged[i] ? "FLAG" : "    ", containment[i], labeled[i], chunks[i],
                printable(r.read_strings(g + "/pages/url", i, 1).at(0)).c_str());
    const auto ids = r.read_u32(g + "/pages/label_ids", offsets[i], std::min<std::uint64_t>(offsets[i + 1] - offsets[i], 3));
    for (auto id : ids)
      std::printf("        label %u: \"%s\"\n", id, one_line(r.read_strings(g + "/labels/sample", id, 1).at(0), 90).c_str());
  }
}

}  // namespace

int inspect_command(int argc, char** argv) {
  std::uint64_t top = 10;
  po::options_description visible("crd inspect RESULT.h5 [--top N]\n\nHuman summary of a crd result file");
  visible.add_options()("top", count_value(top, 10), "rows shown per table")(
      "help,h", "show this help");
  if (wants_help(argc, argv)) {
    std::cout << visible << "\n";
    return 0;
  }
  auto parsed = parse_command(argc, argv, visible, "input", "");
  if (parsed.vm.count("input") == 0) throw UsageError("no result file given");
  const auto inputs = parsed.vm["input"].as<std::vector<std::string>>();
  for (const auto& path : inputs) {
    output::ResultReader r(path);
    std::printf("%s: crd %s result, crd %s, %llu ranks, created %s\n", printable(path).c_str(),
                printable(r.attribute_string("/", "command")).c_str(), printable(r.attribute_string("/", "crd_version")).c_str(),
                static_cast<unsigned long long>(r.attribute_u64("/", "nranks")),
                printable(r.attribute_string("/", "created")).c_str());
    print_counters(r);
    print_table(r, "/discovery/chunks", "labeled chunks", top);
    print_table(r, "/discovery/files", "labeled files", top);
    print_table(r, "/labels", "labels (informed)", top);
    print_detection(r, top);
  }
  return 0;
}

}  // namespace crd::cli
