// Every field a crd command's options fill, in one struct: a command binds the option sets it
// reads (option_sets.hpp) to these fields, and its run function reads them. Each field's
// initializer is its option's default.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "crd/base/enum_names.hpp"
#include "crd/compare/compare_hashing.hpp"
#include "crd/detect/threshold.hpp"
#include "crd/pipeline/neardup_pipeline.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/quilts/params.hpp"
#include "crd/report/report_input.hpp"

namespace crd::cli {

// crd compare's printing and pairing.
struct CompareSettings {
  std::uint32_t granularity = 5;  // k: sentences per cluster of the overlap distribution
  std::uint64_t max_bucket = 1000;
  bool json = false;
};

// crd inspect --rank KEY [--depth D]: how the neighborhood list is ordered and filtered.
enum class RankKey { Badness, Labeled, Pages };
constexpr std::array<EnumName<RankKey>, 3> enum_names(RankKey) {
  return {{{"badness", RankKey::Badness}, {"labeled", RankKey::Labeled}, {"pages", RankKey::Pages}}};
}

struct InspectSettings {
  std::uint64_t top = 10;  // rows shown per table (also crd report's --top: its own default, report_defaults)
  RankKey rank = RankKey::Badness;
  int depth = -1;  // only neighborhoods of this depth; -1 = all
};

struct Settings {
  pipeline::CommonOptions common;
  pipeline::DiscoverOptions discover;
  pipeline::DetectPipelineOptions detect;
  pipeline::NeardupOptions neardup;
  quilts::QuiltParams quilts;
  std::string exclude_pages;  // crd quilts --exclude-pages
  compare::CompareOptions hashing;
  // One field per option, whichever command reads it (one name, one meaning): --labels (detect,
  // check, compare, compare-hashing), --show (check, compare); --page-threshold and --min-labeled
  // are detect.detect's, --gram-words common.scan.chunking's, --top inspect's. A command whose
  // pipeline takes them in a struct of its own copies them there when it runs.
  std::vector<std::string> labels;
  std::uint64_t show = 5;
  CompareSettings compare;
  InspectSettings inspect;
  report::ReportOptions report;
  std::string config_path;
  bool verbose = false;
};

}  // namespace crd::cli
