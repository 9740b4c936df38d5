// crd label, crd detect, crd run.
#include "crd/pipeline/detect_pipeline.hpp"

#include <optional>

#include "crd/detect/page_scores.hpp"
#include "crd/pipeline/discover_pipeline.hpp"
#include "crd/pipeline/label_set.hpp"
#include "crd/pipeline/scan_phase.hpp"

namespace crd::pipeline {
namespace {

std::vector<std::uint8_t> stop_flags(const discover::LocalTally& chunks, const discover::LabelRules& rules) {
  std::vector<std::uint8_t> stop(chunks.distinct(), 0);
  for (std::uint32_t id = 0; id < chunks.distinct(); ++id)
    stop[id] = rules.is_stop(chunks.digest(id), chunks.length(id)) ? 1 : 0;
  return stop;
}

// Scores this rank's pages against label_of and runs distributed detection; writes /detection.
void detect_and_write(output::ResultFile& file, comm::MpiTransport& transport, const CommonOptions& common,
                      const ScanPhase& p, const std::vector<std::uint64_t>& label_of,
                      const discover::LabelRules& stop_rules, const detect::LabelSlice& labels,
                      std::uint64_t label_total, const DetectPipelineOptions& options, const std::string& join_mode,
                      PhaseTimer& timer) {
  timer.start("detect");
  const detect::DetectOptions detect_options = to_detect_options(options);
  const auto stop = stop_flags(p.shard.chunks, stop_rules);
  const detect::PageScores scores = detect::score_pages(p.shard.page_offsets, p.shard.page_chunk_ids, label_of, stop);
  const auto result = detect::detect(transport, p.shard.keys, scores, labels, detect_options, common.round_bytes);
  timer.start("write");
  write_detection(file, result, labels, label_total, detect_options, join_mode);
}

}  // namespace

void run_label(const CommonOptions& common, const DiscoverOptions& options, comm::MpiTransport& transport) {
  PhaseTimer timer;
  std::optional<output::ResultFile> file;
  ScanPhase p = run_scan_phase(common, options, false, transport, timer, file);
  timer.start("label");
  discover::ShuffleTotals shuffled;
  // Every chunk of the expert corpus is a label (count > 0), minus stop chunks.
  const discover::LabelRules rules{0, options.min_chunk_length, p.stop_list()};
  auto result = discover::discover_labels(transport, p.shard.chunks, p.shard.keys, rules, common.round_bytes, shuffled);
  timer.start("write");
  // Rows are already in hash order across ranks (owner_of is monotone in the hash).
  write_labeled_table(*file, "/labels", "/labels_histogram", result, true, options.min_chunk_length);
  finish_run(*file, transport, common, p, shuffled, timer);
}

void run_detect(const CommonOptions& common, const DiscoverOptions& stop_options,
                const DetectPipelineOptions& options, comm::MpiTransport& transport) {
  PhaseTimer timer;
  to_detect_options(options);  // validate before any work
  std::optional<output::ResultFile> file;
  timer.start("load_labels");
  const LabelSet labels =
      load_label_set(transport, options.labels, parse_join_mode(options.join), options.replicate_max);
  ScanPhase p = run_scan_phase(common, stop_options, true, transport, timer, file);
  timer.start("join");
  discover::ShuffleTotals shuffled;
  const auto label_of = join_labels(transport, labels, p.shard.chunks, common.round_bytes, shuffled);
  const discover::LabelRules stop_rules{0, stop_options.min_chunk_length, p.stop_list()};
  detect_and_write(*file, transport, common, p, label_of, stop_rules, labels.owned, labels.total, options,
                   labels.replicated ? "replicated" : "partitioned", timer);
  finish_run(*file, transport, common, p, shuffled, timer);
}

void run_discover_detect(const CommonOptions& common, const DiscoverOptions& discover_options,
                         const DetectPipelineOptions& options, comm::MpiTransport& transport) {
  PhaseTimer timer;
  to_detect_options(options);
  std::optional<output::ResultFile> file;
  ScanPhase p = run_scan_phase(common, discover_options, true, transport, timer, file);
  discover::ShuffleTotals shuffled;
  const discover::StopList* stop = p.stop_list();

  timer.start("discover_chunks");
  const discover::LabelRules chunk_rules{discover_options.chunk_threshold, discover_options.min_chunk_length, stop};
  auto chunks = discover::discover_labels(transport, p.shard.chunks, p.shard.keys, chunk_rules, common.round_bytes, shuffled);
  timer.start("discover_files");
  const discover::LabelRules file_rules{discover_options.file_threshold, 0, stop};
  auto files = discover::discover_labels(transport, p.shard.files, p.shard.keys, file_rules, common.round_bytes, shuffled);

  // The labels this rank owns, by hash, before they are reordered by count for /discovery.
  detect::LabelSlice labels;
  labels.first_id = chunks.first_label_id;
  for (const auto& row : chunks.table.rows) {
    labels.hashes.push_back(row.hash);
    labels.lengths.push_back(row.length);
    labels.samples.push_back(row.sample);
  }
  std::vector<std::uint64_t> label_of(p.shard.chunks.distinct(), detect::kNoLabel);
  for (const auto& t : chunks.labeled_local) label_of[t.local_id] = t.tag;

  timer.start("write_discovery");
  write_discovery(*file, transport, chunks, files, discover_options, common.round_bytes);

  const discover::LabelRules stop_rules{0, discover_options.min_chunk_length, stop};
  detect_and_write(*file, transport, common, p, label_of, stop_rules, labels, chunks.table.labeled, options,
                   "partitioned", timer);
  finish_run(*file, transport, common, p, shuffled, timer);
}

}  // namespace crd::pipeline
