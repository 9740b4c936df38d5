// crd label, crd detect, crd run.
#include "crd/pipeline/detect_pipeline.hpp"

#include <functional>
#include <optional>

#include "agreed_errors.hpp"
#include "checkpoint/checkpoint_codec.hpp"
#include "crd/base/error.hpp"
#include "crd/chunk/chunking_identity.hpp"
#include "crd/detect/combined_rule.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/output/schema.hpp"
#include "crd/pipeline/discover_pipeline.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "detection_writer.hpp"
#include "hash_passes.hpp"
#include "labels/label_set.hpp"
#include "labels/labeled_documents.hpp"
#include "memory_budget.hpp"

namespace crd::pipeline {

namespace {

// By local chunk id: 1 for an exact chunk, 0 for a winnowed gram of --chunker winnow+scan (its sample
// starts with chunk::kGramMark). The samples must be kept (sample_bytes >= 1).
std::vector<std::uint8_t> exact_flags(const discover::LocalTally& chunks) {
  std::vector<std::uint8_t> exact(chunks.distinct(), 0);
  for (std::uint32_t id = 0; id < chunks.distinct(); ++id) exact[id] = chunk::is_marked_gram(chunks.sample(id)) ? 0 : 1;
  return exact;
}

// Scores this rank's pages against label_of (computed on demand) — or, out of core, against
// `joined` in passes — and runs distributed detection, or loads its checkpoint; writes /detection.
void detect_and_write(output::ResultFile& file, comm::Transport& transport, const CommonOptions& common, ScanPhase& p,
                      const std::function<std::vector<std::uint64_t>()>& label_of, const LabelSet& joined,
                      discover::ShuffleTotals& shuffled, const detect::LabelSlice& labels, std::uint64_t label_total,
                      const detect::DetectOptions& given, const std::string& join_mode, PhaseTimer& timer,
                      const LabeledDocuments* documents = nullptr, std::uint64_t pairs = 0) {
  timer.start("detect");
  detect::DetectOptions options = given;
  options.combined = common.scan.chunker == chunk::ChunkerKind::WinnowScan;
  // The passes replace the chunks of other passes by markers without a kind (the same on every rank).
  if (options.combined && p.passes > 1)
    throw FatalError("--chunker winnow+scan scores pages in memory only: the tables need more than --memory");
  // Label ids are stored as uint32 per page match (docs/schema.md); the same test on every rank.
  if (label_total > 0xFFFFFFFFull) throw FatalError("more than 2^32 - 1 labels: split the labeled set");
  detect::DetectionResult result;
  std::uint64_t only_stop_pages = 0;  // this rank's; kept in the checkpoint with the result
  if (!p.checkpoints->load_agreed("detect", [&](BinaryFileReader& in) {
        result = load_detection(in);
        only_stop_pages = in.pod<std::uint64_t>();
        check_label_use(result, labels.hashes.size());
      })) {
    const auto score = [&] {
      if (p.passes > 1) return score_in_passes(transport, p, common, joined, p.stop.chunk_rules(), shuffled);
      auto stop = discover::stop_flags(p.shard.chunks, p.stop.chunk_rules());
      std::vector<std::uint8_t> exact;
      if (options.combined) {
        exact = exact_flags(p.shard.chunks);
        // The exact part's own 100-byte rule (--exact-min-length); --min-chunk-length would also
        // remove every gram.
        for (std::uint32_t id = 0; id < p.shard.chunks.distinct(); ++id)
          if (exact[id] != 0 && p.shard.chunks.length(id) < options.exact_min_length) stop[id] = 1;
      }
      const std::vector<std::uint64_t> labels_of = label_of();
      detect::PageScores scores = detect::score_pages(p.shard.page_offsets, p.shard.page_chunk_ids, labels_of, stop);
      if (options.combined)
        detect::score_exact_part(scores, p.shard.page_offsets, p.shard.page_chunk_ids, labels_of, stop, exact);
      return scores;
    };
    const detect::PageScores scores = score();
    only_stop_pages = scores.only_stop_pages;
    result = detect::detect(transport, p.shard.keys, scores, labels, options, common.round_bytes);
    p.checkpoints->save("detect", [&](BinaryFileWriter& out) {
      save_detection(out, result);
      out.pod(only_stop_pages);
    });
    p.checkpoints->agree_saved();
  }
  // Counted only when it happens, so results without such pages keep their counters as they were.
  if (only_stop_pages > 0) p.shard.counters.add(detect::kOnlyStopPagesCounter, only_stop_pages);
  fault_point("after_detect", transport.rank());
  std::vector<output::SimilarityPairRow> pair_rows;
  if (documents != nullptr) {
    timer.start("pairs");
    pair_rows = similarity_pairs(result.pages, *documents, pairs);
  }
  timer.start("write");
  write_detection(file, std::move(result), labels, label_total, options, join_mode);
  // /detection/labels is a labeled set too (--labels reads it): it records the chunking it matched.
  file.set_attribute(output::schema::kDetectionLabels.group, output::schema::attr::kLabelChunking,
                     chunk::chunking_identity(common.scan.chunker, common.scan.chunking));
  if (documents != nullptr) output::write_table(file, output::schema::kDetectionPairs, pair_rows);
}

}  // namespace

void run_label(const CommonOptions& common, const DiscoverOptions& options, comm::Transport& transport) {
  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    // Pages are kept: /labels_documents lists each expert document's labels (for detect --pairs).
    const MemoryBudget budget = MemoryBudget::of_job(common, transport);
    ScanRequest request = scan_request(options);
    request.keep_pages = true;
    ScanPhase p = run_scan_phase(common, request, budget, transport, timer, file);
    timer.start("label");
    discover::ShuffleTotals shuffled;
    // Every chunk of the expert corpus is a label (count > 0), minus stop chunks.
    auto result = discover::discover_labels(transport, p.shard.chunks, p.shard.keys, p.stop.chunk_rules(),
                                            common.round_bytes, shuffled);
    std::vector<std::uint64_t> label_of(p.shard.chunks.distinct(), detect::kNoLabel);
    for (const auto& t : result.labeled_local) label_of[t.local_id] = t.tag;
    const detect::PageScores scores = detect::score_pages(p.shard.page_offsets, p.shard.page_chunk_ids, label_of,
                                                          discover::stop_flags(p.shard.chunks, p.stop.chunk_rules()));
    auto documents = labeled_document_rows(transport, p.shard.keys, scores, common.round_bytes);
    timer.start("write");
    // Rows are already in hash order across ranks (owner_of is monotone in the hash).
    write_labeled_table(*file, output::schema::kLabels, output::schema::kLabelsHistogram, result,
                        options.min_chunk_length, chunk::chunking_identity(common.scan.chunker, common.scan.chunking));
    output::write_table(*file, output::schema::kLabelsDocuments, documents);
    finish_run(*file, transport, common, p, shuffled, timer);
  });
}

void run_detect(const CommonOptions& common, const DiscoverOptions& stop_options, const DetectPipelineOptions& options,
                comm::Transport& transport) {
  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    const MemoryBudget budget = MemoryBudget::of_job(common, transport);
    timer.start("load_labels");
    const LabelSet labels = load_label_set(transport, options.labels, options.join, options.replicate_max, budget,
                                           chunk::chunking_identity(common.scan.chunker, common.scan.chunking));
    // --memory: the labeled set and --pairs' documents (every rank holds them all) stay beside the
    // tables in every pass; loading the documents is checked before it starts.
    std::optional<LabeledDocuments> documents;
    if (options.pairs > 0) {
      if (budget.budget() != 0) {
        std::uint64_t loading = 0;
        agree_on_errors(transport, [&] { loading = labeled_documents_peak(options.labels); });
        budget.check_held(transport, "the labeled set and loading the labeled documents of --pairs",
                          held_bytes(labels) + loading);
      }
      documents = load_labeled_documents(transport, options.labels, budget);
    }
    const std::uint64_t held = held_bytes(labels) + (documents ? held_bytes(*documents) : 0);
    budget.check_held(transport, documents ? "the labeled set and the labeled documents of --pairs" : "the labeled set",
                      held);
    ScanRequest request = scan_request(stop_options);
    request.keep_pages = true;
    request.out_of_core = true;
    request.held_bytes = [&] { return held; };
    ScanPhase p = run_scan_phase(common, request, budget, transport, timer, file);
    discover::ShuffleTotals shuffled;
    const auto label_of = [&] { return join_labels(transport, labels, p.shard.chunks, common.round_bytes, shuffled); };
    detect_and_write(*file, transport, common, p, label_of, labels, shuffled, labels.owned, labels.total,
                     options.detect, name_of(labels.replicated ? JoinMode::Replicated : JoinMode::Partitioned), timer,
                     documents ? &*documents : nullptr, options.pairs);
    finish_run(*file, transport, common, p, shuffled, timer);
  });
}

void run_discover_detect(const CommonOptions& common, const DiscoverOptions& discover_options,
                         const DetectPipelineOptions& options, comm::Transport& transport) {
  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    const MemoryBudget budget = MemoryBudget::of_job(common, transport);
    ScanRequest request = scan_request(discover_options);
    request.keep_pages = true;
    request.out_of_core = true;
    ScanPhase p = run_scan_phase(common, request, budget, transport, timer, file);
    discover::ShuffleTotals shuffled;

    timer.start("discover");
    auto [chunks, files] = p.passes > 1 ? discover_in_passes(transport, p, common, discover_options, shuffled)
                                        : discover_phase(transport, p, discover_options, common.round_bytes, shuffled);

    // The labels this rank owns, by hash, before they are reordered by count for /discovery.
    detect::LabelSlice labels;
    labels.first_id = chunks.first_label_id;
    for (const auto& row : chunks.table.rows) {
      labels.hashes.push_back(row.hash);
      labels.lengths.push_back(row.length);
      labels.samples.push_back(row.sample);
    }
    // The binding is captured by name: clang 14 (the fuzz build) cannot capture a structured binding.
    const auto label_of = [&, &labeled = chunks.labeled_local] {
      std::vector<std::uint64_t> out(p.shard.chunks.distinct(), detect::kNoLabel);
      for (const auto& t : labeled) out[t.local_id] = t.tag;
      return out;
    };

    timer.start("write_discovery");
    write_discovery(*file, transport, chunks, files, discover_options,
                    chunk::chunking_identity(common.scan.chunker, common.scan.chunking), common.round_bytes);

    LabelSet joined;  // out of core, detection joins each pass's chunks with the labels again
    if (p.passes > 1) {
      joined.owned = labels;
      joined.total = chunks.table.labeled;
    }
    detect_and_write(*file, transport, common, p, label_of, joined, shuffled, labels, chunks.table.labeled,
                     options.detect, name_of(JoinMode::Partitioned), timer);
    finish_run(*file, transport, common, p, shuffled, timer);
  });
}

}  // namespace crd::pipeline
