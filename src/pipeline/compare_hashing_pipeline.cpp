// crd compare-hashing: the distributed job (compare_hashing_pipeline.hpp).
//
// Same sharding as crd detect: each rank scans its shard through scan_shard, which hands every
// chunk's full normalized bytes to the comparison, which sketches each distinct chunk once. L is
// replicated on every rank. --memory: L is on every rank whatever the rank count; the sketches
// count with the scan's tables; the labels' sketches and the comparisons are checked before each
// starts.
#include "crd/pipeline/compare_hashing_pipeline.hpp"

#include <iostream>
#include <optional>

#include "crd/chunk/chunking_identity.hpp"
#include "crd/compare/hashing_comparison.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "labels/label_set.hpp"
#include "memory_budget.hpp"
#include "progress.hpp"

namespace crd::pipeline {
namespace {

// Progress lines for the comparisons (--progress-interval), which took minutes against 62k labels.
class CompareLines : public compare::CompareProgress {
 public:
  CompareLines(comm::Transport& transport, double interval) : transport_(transport), interval_(interval) {}
  void begin(std::uint64_t job_chunks) override {
    lines_.emplace(transport_, "compare", job_chunks, interval_, "chunks");
  }
  void done(std::uint64_t rank_chunks) override { lines_->update(rank_chunks, 0); }
  void finish() { lines_->finish(transport_); }  // collective

 private:
  comm::Transport& transport_;
  double interval_;
  std::optional<Progress> lines_;
};

}  // namespace

void run_compare_hashing(const CommonOptions& common, const DiscoverOptions& stop_options,
                         const compare::CompareOptions& options, comm::Transport& transport) {
  compare::HashingComparison comparison(options);
  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    const MemoryBudget budget = MemoryBudget::of_job(common, transport);
    timer.start("load_labels");
    LabelSet labels = load_label_set(transport, options.labels, JoinMode::Replicated, 0, budget,
                                     chunk::chunking_identity(common.scan.chunker, common.scan.chunking));
    comparison.load_truth(transport);
    const std::uint64_t labels_bytes = held_bytes(labels) + comparison.truth_bytes();
    budget.check_held(transport, "the labeled set and the truth prefixes", labels_bytes);

    CommonOptions scan_common = common;
    comparison.use_labels({labels.owned, labels.total, labels.all}, labels_bytes);
    scan_common.scan.on_chunk = [&](const Digest& d, std::string_view text) { comparison.add_chunk(d, text); };
    ScanRequest request = scan_request(stop_options);
    request.keep_pages = true;
    request.held_bytes = [&] { return comparison.held(); };
    ScanPhase p = run_scan_phase(scan_common, request, budget, transport, timer, file);
    const std::uint64_t tables = MemoryBudget::tables_bytes(p.shard);

    timer.start("sketch_labels");
    const std::uint64_t gathered = comparison.label_sketches_bytes(transport);
    budget.check_peak(transport, "gathering the labels' sketches", tables + comparison.held() + gathered);
    comparison.gather_label_sketches(transport);

    timer.start("compare");
    const auto& chunks = p.shard.chunks;
    budget.check_peak(transport, "comparing the chunks with the labels",
                      tables + comparison.held() + comparison.scoring_bytes(chunks.distinct()));
    CompareLines lines(transport, common.progress_interval);
    shuffle::ExchangeStats stats;
    comparison.score_chunks(transport, chunks, {common.round_bytes, &stats}, &lines);
    lines.finish();
    const auto is_stop = discover::stop_flags(chunks, p.stop.chunk_rules());
    std::vector<output::ConfusionRow> rows =
        comparison.evaluate(transport, {chunks, p.shard.page_offsets, p.shard.page_chunk_ids, p.shard.keys, is_stop});
    if (transport.rank() == 0) std::cout << comparison.tables(rows) << std::flush;

    timer.start("write");
    comparison.write(*file, transport, std::move(rows));
    discover::ShuffleTotals shuffled;
    shuffled.add(stats);
    finish_run(*file, transport, common, p, shuffled, timer);
  });
}

}  // namespace crd::pipeline
