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

// crd check: single pages, so no distribution for "auto": a fixed threshold.
struct CheckSettings {
  detect::Threshold threshold{false, 0};
  std::uint64_t min_labeled = 1;
  std::uint64_t show = 5;
};

// crd compare's printing and pairing.
struct CompareSettings {
  std::uint32_t granularity = 5;  // k: sentences per cluster of the overlap distribution
  std::uint64_t show = 5;
  std::uint64_t max_bucket = 1000;
  bool json = false;
};

// crd inspect --rank KEY [--depth D]: how the neighborhood list is ordered and filtered.
enum class RankKey { Badness, Labeled, Pages };
constexpr std::array<EnumName<RankKey>, 3> enum_names(RankKey) {
  return {{{"badness", RankKey::Badness}, {"labeled", RankKey::Labeled}, {"pages", RankKey::Pages}}};
}

struct InspectSettings {
  std::uint64_t top = 10;  // rows shown per table
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
  std::vector<std::string> labels;  // crd check and crd compare --labels
  CheckSettings check;
  CompareSettings compare;
  InspectSettings inspect;
  report::ReportOptions report;
  std::string config_path;
  bool verbose = false;
};

}  // namespace crd::cli
