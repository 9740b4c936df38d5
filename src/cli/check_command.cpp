// crd check: single pages against a labeled set, in one process (the phishing use case, paper
// §8.2). Loads only the label hashes (20 bytes each) into a flat map, so a check costs
// milliseconds; label samples are read only for the labels a page matched.
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

#include "crd/chunk/chunker.hpp"
#include "crd/cli/commands.hpp"
#include "crd/cli/option_groups.hpp"
#include "crd/cli/text_format.hpp"
#include "crd/core/error.hpp"
#include "crd/detect/threshold.hpp"
#include "crd/discover/digest_map.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/table_io.hpp"
#include "crd/pipeline/label_set.hpp"

namespace crd::cli {
namespace {

struct LabelSource {
  std::string path;
  std::string group;
  std::uint64_t row;
};

struct Match {
  std::uint32_t position;
  std::string text;
  const LabelSource* label;
};

std::string read_page(const std::string& path) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read page '" + path + "'");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

int check_command(int argc, char** argv) {
  pipeline::CommonOptions common;
  pipeline::DiscoverOptions stop_options;
  std::vector<std::string> label_paths;
  std::string page_threshold_text;
  std::uint64_t min_labeled = 1;
  std::size_t show = 5;
  std::string config_path;
  po::options_description visible(
      "crd check --labels L.h5 [options] PAGE… (- = stdin)\n\n"
      "Check single pages against a labeled set (no MPI job): labeled/total chunks, containment,\n"
      "and the matched chunks' text");
  visible.add(input_options(common)).add(discovery_options(stop_options, false));
  visible.add_options()
      ("labels", po::value<std::vector<std::string>>(&label_paths)->required(), "labeled set(s): crd result files")
      ("page-threshold", po::value<std::string>(&page_threshold_text)->default_value("0"),
       "flag a page whose containment exceeds this")
      ("min-labeled", po::value<std::uint64_t>(&min_labeled)->default_value(1), "and that has at least this many labeled chunks")
      ("show", po::value<std::size_t>(&show)->default_value(5), "matched chunks printed per page")
      ("config", po::value<std::string>(&config_path), "read options from this INI file (command line wins)")
      ("help,h", "show this help");
  if (wants_help(argc, argv)) {
    std::cout << visible << "\n";
    return 0;
  }
  auto parsed = parse_command(argc, argv, visible, "input", "config");
  if (parsed.vm.count("input") == 0) throw UsageError("no page given (a file, or - for stdin)");
  const auto threshold = detect::Threshold::parse(page_threshold_text, "page-threshold");
  if (threshold.automatic) throw UsageError("option --page-threshold: check scores single pages; give a number");

  std::optional<discover::StopList> stop;
  if (!stop_options.stop_chunks.empty()) stop = discover::StopList::load(stop_options.stop_chunks);
  const discover::LabelRules stop_rules{0, stop_options.min_chunk_length, stop ? &*stop : nullptr};

  // Label hashes of every file, first occurrence wins.
  std::vector<LabelSource> sources;
  discover::DigestMap<std::uint32_t> labels;
  for (const auto& path : label_paths) {
    output::ResultReader reader(path);
    const std::string group = pipeline::labels_group(reader);
    const auto hashes = reader.read_matrix(output::Table<discover::LabelRow>{group.c_str()}.column(&discover::LabelRow::hash));
    for (std::size_t i = 0; i * 20 < hashes.size(); ++i) {
      Digest d;
      std::copy_n(hashes.begin() + static_cast<std::ptrdiff_t>(i * 20), 20, d.bytes.begin());
      bool inserted = false;
      std::uint32_t& slot = labels.find_or_insert(d, inserted);
      if (inserted) {
        slot = static_cast<std::uint32_t>(sources.size());
        sources.push_back({path, group, i});
      }
    }
  }

  auto chunker = chunk::make_chunker(common.scan.chunker, common.scan.chunking);
  Sha1 sha1;
  std::uint64_t flagged_pages = 0;
  const auto pages = parsed.vm["input"].as<std::vector<std::string>>();
  for (const auto& page_path : pages) {
    const std::string page = read_page(page_path);
    std::uint32_t chunks = 0;
    std::vector<Match> matches;
    const std::string_view skipped = chunker->chunk(page, "", [&](std::string_view normalized) {
      const Digest d = sha1(normalized);
      if (stop_rules.is_stop(d, normalized.size())) return;
      if (const std::uint32_t* id = labels.find(d)) matches.push_back({chunks, std::string(normalized), &sources[*id]});
      ++chunks;
    });
    if (!skipped.empty()) {
      std::printf("%s: not checked (%s)\n", page_path.c_str(), std::string(skipped).c_str());
      continue;
    }
    const double containment = chunks == 0 ? 0.0 : static_cast<double>(matches.size()) / chunks;
    const bool flagged = chunks > 0 && containment > threshold.value && matches.size() >= min_labeled;
    flagged_pages += flagged ? 1 : 0;
    std::printf("%s: %zu/%u labeled chunks, containment %.4f%s\n", page_path.c_str(), matches.size(), chunks,
                containment, flagged ? "  FLAGGED" : "");
    for (std::size_t k = 0; k < std::min(show, matches.size()); ++k) {
      const Match& m = matches[k];
      std::printf("  chunk %u: \"%s\"  [%s%s row %llu]\n", m.position, one_line(m.text, 90).c_str(), m.label->path.c_str(),
                  m.label->group.c_str(), static_cast<unsigned long long>(m.label->row));
    }
  }
  std::printf("%llu of %zu pages flagged\n", static_cast<unsigned long long>(flagged_pages), pages.size());
  return 0;
}

}  // namespace crd::cli
