// crd merge: read → sum by owner → label → write (merge_pipeline.hpp).
#include "crd/pipeline/merge_pipeline.hpp"

#include <optional>

#include "crd/discover/discovery.hpp"
#include "crd/output/schema.hpp"
#include "crd/pipeline/discover_pipeline.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "merge_inputs.hpp"

namespace crd::pipeline {
namespace {

// Collective: one kind of item (chunks or files) summed, then labeled by `rules`.
discover::TallyDiscovery merge_tallies(comm::Transport& transport, std::vector<discover::CountRow> counts,
                                       std::vector<discover::AnnotationRecord> notes, const discover::LabelRules& rules,
                                       std::size_t round_bytes, discover::ShuffleTotals& shuffled,
                                       std::uint64_t& tables_bytes) {
  const discover::OwnerTally owned = discover::reduce_counts(transport, std::move(counts), round_bytes, shuffled);
  tables_bytes += owned.distinct() * (sizeof(Digest) + 2 * sizeof(std::uint64_t));
  return discover::label_counts(transport, owned, std::move(notes), rules, round_bytes, shuffled);
}

}  // namespace

void run_merge(const CommonOptions& common, const DiscoverOptions& options, comm::Transport& transport) {
  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    timer.start("read");
    MergeInputs in = read_merge_inputs(transport, common.inputs, MemoryBudget::of_job(common, transport));
    const discover::StopItems stop(options.stop_chunks, options.min_chunk_length);
    file.emplace(transport, common.output);

    timer.start("merge");
    discover::ShuffleTotals shuffled;
    std::uint64_t tables_bytes = 0;
    auto chunks = merge_tallies(transport, std::move(in.chunk_counts), std::move(in.chunk_notes),
                                stop.chunk_rules(options.chunk_threshold, options.chunk_top), common.round_bytes,
                                shuffled, tables_bytes);
    auto files = merge_tallies(transport, std::move(in.file_counts), std::move(in.file_notes),
                               stop.file_rules(options.file_threshold, options.file_top), common.round_bytes, shuffled,
                               tables_bytes);

    timer.start("write");
    DiscoverOptions written = options;
    written.keep_counts = true;  // a merged result merges again (month after month)
    write_discovery(*file, transport, chunks, files, written, in.chunking, common.round_bytes);
    const Counters resources = run_resources(transport, common, tables_bytes, shuffled);
    timer.stop();
    write_run_report(*file, transport, common.info, in.counters, resources, timer, in.errors);
    if (transport.rank() != 0) in.sources.clear();  // one row per input, written once
    output::write_table(*file, output::schema::kMergeInputs, in.sources);
    file->commit();
  });
}

}  // namespace crd::pipeline
