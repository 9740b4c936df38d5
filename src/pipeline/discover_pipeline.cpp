// The discover pipeline and the writer of its tables.
#include "crd/pipeline/discover_pipeline.hpp"

#include <optional>

#include "checkpoint/checkpoint_codec.hpp"
#include "count_tables.hpp"
#include "crd/chunk/chunking_identity.hpp"
#include "crd/output/schema.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "hash_passes.hpp"
#include "memory_budget.hpp"

namespace crd::pipeline {

void write_labeled_table(output::ResultFile& file, const output::Table<discover::LabelRow>& table,
                         const output::Table<discover::HistogramRow>& histogram, discover::TallyDiscovery& result,
                         std::uint64_t min_length, const std::string& chunking) {
  namespace attr = output::schema::attr;
  auto& t = result.table;
  output::write_table(file, table, t.rows);
  file.set_attribute(table.group, attr::kThreshold, t.threshold);
  file.set_attribute(table.group, attr::kTotal, t.total);
  file.set_attribute(table.group, attr::kDistinct, t.distinct);
  file.set_attribute(table.group, attr::kLabeled, t.labeled);
  file.set_attribute(table.group, attr::kStopRemoved, t.stop_removed);
  file.set_attribute(table.group, attr::kTop, t.top);
  file.set_attribute(table.group, attr::kTopRemoved, t.top_removed);
  if (table.stores(&discover::LabelRow::sample)) {
    file.set_attribute(table.group, attr::kMinChunkLength, min_length);
    file.set_attribute(table.group, attr::kLabelChunking, chunking);
  }
  output::write_table(file, histogram, result.histogram);
}

void run_discover(const CommonOptions& common, const DiscoverOptions& options,
                  comm::Transport& transport) {
  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    const MemoryBudget budget = MemoryBudget::of_job(common, transport);
    ScanRequest request = scan_request(options);
    request.out_of_core = true;
    ScanPhase scan = run_scan_phase(common, request, budget, transport, timer, file);

    discover::ShuffleTotals shuffled;
    timer.start("discover");
    auto [chunks, files] = scan.passes > 1 ? discover_in_passes(transport, scan, common, options, shuffled)
                                           : discover_phase(transport, scan, options, common.round_bytes, shuffled);

    timer.start("write");
    write_discovery(*file, transport, chunks, files, options,
                    chunk::chunking_identity(common.scan.chunker, common.scan.chunking), common.round_bytes);
    finish_run(*file, transport, common, scan, shuffled, timer);
  });
}

DiscoveryPhase discover_phase(comm::Transport& transport, ScanPhase& scan, const DiscoverOptions& options,
                              std::size_t round_bytes, discover::ShuffleTotals& shuffled) {
  DiscoveryPhase d;
  if (scan.checkpoints->load_agreed("discover", [&](BinaryFileReader& in) {
        d.chunks = load_discovery(in);
        d.files = load_discovery(in);
        check_local_ids(d.chunks, scan.shard.chunks.distinct());
        check_local_ids(d.files, scan.shard.files.distinct());
      })) {
    return d;
  }
  d.chunks = discover::discover_labels(transport, scan.shard.chunks, scan.shard.keys,
                                       scan.stop.chunk_rules(options.chunk_threshold, options.chunk_top), round_bytes,
                                       shuffled, options.keep_counts);
  d.files = discover::discover_labels(transport, scan.shard.files, scan.shard.keys,
                                      scan.stop.file_rules(options.file_threshold, options.file_top), round_bytes,
                                      shuffled, options.keep_counts);
  scan.checkpoints->save("discover", [&](BinaryFileWriter& out) {
    save_discovery(out, d.chunks);
    save_discovery(out, d.files);
  });
  scan.checkpoints->agree_saved();
  fault_point("after_discover", transport.rank());
  return d;
}

void write_discovery(output::ResultFile& file, comm::Transport& transport, discover::TallyDiscovery& chunks,
                     discover::TallyDiscovery& files, const DiscoverOptions& options,
                     const std::string& chunking, std::size_t round_bytes) {
  if (options.keep_counts) write_count_tables(file, chunks.counts, files.counts, chunking);
  chunks.table.rows = discover::sort_by_count(transport, std::move(chunks.table.rows), round_bytes);
  files.table.rows = discover::sort_by_count(transport, std::move(files.table.rows), round_bytes);
  write_labeled_table(file, output::schema::kDiscoveryChunks, output::schema::kChunkHistogram, chunks,
                      options.min_chunk_length, chunking);
  write_labeled_table(file, output::schema::kDiscoveryFiles, output::schema::kFileHistogram, files, 0, chunking);
}

}  // namespace crd::pipeline
