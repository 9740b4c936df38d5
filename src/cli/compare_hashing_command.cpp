// crd compare-hashing: its option group, then the MPI job (compare/compare_hashing.hpp).
#include <cmath>

#include "commands.hpp"
#include "corpus_job.hpp"
#include "crd/base/error.hpp"
#include "crd/compare/compare_hashing.hpp"
#include "option_groups.hpp"
#include "option_values.hpp"

namespace crd::cli {
namespace {

// Boost's option tables read best one option a line (as in option_groups.cpp).
// clang-format off
po::options_description comparison_options(compare::CompareOptions& o) {
  po::options_description d("Comparison (exact chunks against LSH, paper §6.5)");
  d.add_options()
      ("labels", po::value<std::vector<std::string>>(&o.labels)->required(),
       "labeled set L: a crd label / discover / run result (repeatable; sets are merged)")
      ("truth", po::value<std::string>(&o.truth)->required(),
       "file of positive URL prefixes (page keys, host/path…), one per line; every other page is negative")
      ("page-threshold", threshold_value(o.page_threshold, "page-threshold"),
       "flag pages whose containment exceeds this, for every method (auto = mean + σ of the SHA-1 "
       "containments over all pages)")
      ("min-labeled", count_value(o.min_labeled), "flag a page only with at least this many matching chunks")
      ("extrapolate-pages", po::value<double>()->default_value(2.86e9, "2.86e9")->notifier([&o](double v) {
         if (!std::isfinite(v) || v < 0) throw UsageError("option --extrapolate-pages: must be a finite number ≥ 0");
         o.extrapolate_pages = v;
       }),
       "corpus size the false-positive rate is extrapolated to (Common Crawl's files in §6.5)")
      ("nilsimsa-threshold", po::value<int>(&o.sweep.nilsimsa_threshold)->default_value(o.sweep.nilsimsa_threshold),
       "Nilsimsa match: score ≥ this, of 128 (the paper's 115)")
      ("nilsimsa-sweep", po::value<std::string>(&o.sweep.nilsimsa_sweep)->default_value(o.sweep.nilsimsa_sweep),
       "Nilsimsa thresholds to sweep: A:B (every integer) or a,b,c")
      ("tlsh-threshold", po::value<int>(&o.sweep.tlsh_threshold)->default_value(o.sweep.tlsh_threshold),
       "TLSH match: distance ≤ this")
      ("tlsh-sweep", po::value<std::string>(&o.sweep.tlsh_sweep)->default_value(o.sweep.tlsh_sweep),
       "TLSH distances to sweep")
      ("ssdeep-threshold", po::value<int>(&o.sweep.ssdeep_threshold)->default_value(o.sweep.ssdeep_threshold),
       "ssdeep match: score ≥ this, of 100")
      ("ssdeep-sweep", po::value<std::string>(&o.sweep.ssdeep_sweep)->default_value(o.sweep.ssdeep_sweep),
       "ssdeep scores to sweep");
  return d;
}
// clang-format on

}  // namespace

int compare_hashing_command(int argc, char** argv) {
  pipeline::CommonOptions common;
  pipeline::DiscoverOptions stop_options;
  compare::CompareOptions options;
  std::string config_path;
  po::options_description visible(
      "crd compare-hashing [options] INPUT… --labels L.h5 --truth PREFIXES.txt -o OUT.h5\n\n"
      "Page detection with SHA-1 chunk hashes against Nilsimsa, TLSH and ssdeep on a corpus with known\n"
      "truth (paper §6.5, Table 1): confusion matrices, false-positive rates, and a sweep of each LSH\n"
      "threshold; printed, and written to /compare_hashing");
  visible.add(corpus_options(common, false)).add(chunking_options(common));
  visible.add(discovery_options(stop_options, false));
  visible.add(comparison_options(options));
  // The LSH sketches live only in memory while the corpus is read: no checkpoints.
  visible.add(run_options(common, config_path, false));
  visible.add_options()("help,h", "show this help");
  return run_mpi_command(argc, argv, visible, [&](comm::Transport& transport) {
    auto parsed = parse_command(argc, argv, visible, "no input given (files, directories or @LIST)", "config");
    std::vector<std::string> also_reads{config_path, stop_options.stop_chunks, options.truth};
    also_reads.insert(also_reads.end(), options.labels.begin(), options.labels.end());
    start_corpus_job(transport, argc, argv, parsed, common, also_reads);
    compare::run_compare_hashing(common, stop_options, options, transport);
    return 0;
  });
}

}  // namespace crd::cli
