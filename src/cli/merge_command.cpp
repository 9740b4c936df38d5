// crd merge: options → merge pipeline, under MPI.
#include "commands.hpp"
#include "corpus_job.hpp"
#include "option_groups.hpp"
#include "crd/pipeline/merge_pipeline.hpp"

namespace crd::cli {

int merge_command(int argc, char** argv) {
  pipeline::CommonOptions common;
  pipeline::DiscoverOptions options;
  std::string config_path;
  po::options_description visible(
      "crd merge [options] RESULT.h5… -o MERGED.h5\n\n"
      "Sums the chunk and file counts of discover results made with --keep-counts (months, crawls,\n"
      "batches), then labels, annotates and writes them as one discover over all their inputs would\n"
      "(docs/merge.md)");
  // Thresholds, top-N and stop items apply to the summed counts; the chunking is the inputs'.
  visible.add(discovery_options(options, true));
  visible.add(run_options(common, config_path, false));  // reads results, not a corpus: nothing to resume
  visible.add_options()("help,h", "show this help");
  return run_mpi_command(argc, argv, visible, [&](comm::Transport& transport) {
    auto parsed = parse_command(argc, argv, visible, "no result file given", "config");
    start_corpus_job(transport, argc, argv, parsed, common, {config_path, options.stop_chunks});
    pipeline::run_merge(common, options, transport);
    return 0;
  });
}

}  // namespace crd::cli
