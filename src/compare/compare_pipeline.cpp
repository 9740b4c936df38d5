// crd compare-hashing: the distributed job (compare_hashing.hpp).
//
// Same sharding as crd detect: each rank scans its shard through scan_shard, which hands every
// chunk's full normalized bytes to a hook here; each distinct chunk is sketched once (Nilsimsa,
// TLSH, ssdeep). L is replicated on every rank. The LSH functions need L's text, which a result
// file keeps only as a ≤ sample-bytes prefix: a label's text is its sample when that is the whole
// chunk, else its bytes as met in the corpus (gathered from all ranks); labels whose text is in
// neither are counted (labels_with_text) and can match by SHA-1 only. Each distinct chunk is
// compared with all label sketches once, on the rank owning its SHA-1 (owner_scores.hpp); pages
// are scored as crd detect scores them, and the confusion counts are summed by allreduce, so the
// result is identical for any rank count.
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "chunk_sketch.hpp"
#include "crd/base/capped_text_file.hpp"
#include "crd/base/error.hpp"
#include "crd/compare/compare_hashing.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/output/schema.hpp"
#include "crd/chunk/chunking_identity.hpp"
#include "crd/pipeline/detect_pipeline.hpp"
#include "crd/pipeline/label_set.hpp"
#include "crd/pipeline/memory_checks.hpp"
#include "crd/pipeline/progress.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "crd/comm/collectives.hpp"
#include "owner_scores.hpp"
#include "page_confusion.hpp"
#include "result_table.hpp"

namespace crd::compare {
namespace {

// Rank 0 reads the truth file; every rank gets its text or the same error.
TruthPrefixes load_truth(comm::Transport& transport, const std::string& path) {
  std::string text, error;
  if (transport.rank() == 0) {
    try {
      text = read_capped_text_file(path, "truth file");  // capped: a 5 GB sparse file ran to bad_alloc
    } catch (const UsageError& e) {
      error = e.what();
    }
  }
  if (const std::string e = comm::first_error(transport, error); !e.empty()) throw UsageError(e.substr(e.find(": ") + 2));
  return TruthPrefixes::parse(comm::broadcast_from_rank0<std::string>(transport, text), path);
}

// Progress lines for the comparisons (--progress-interval), which took minutes against 62k labels.
class CompareLines : public CompareProgress {
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
  std::optional<pipeline::Progress> lines_;
};

// A node of sketch_of (an unordered_map<Digest, uint32_t>): key, value, next pointer, cached hash,
// malloc's header (for --memory).
constexpr std::uint64_t kMapNodeBytes = sizeof(Digest) + 4 + 8 + 8 + 8;

// A label's sketch, made by the rank that met its text in the scan or that owns its sample.
struct LabelSketch {
  Digest digest;
  ChunkSketch sketch;
  static constexpr auto fields() { return std::tuple(&LabelSketch::digest, &LabelSketch::sketch); }
};

// Collective: a sketch of every label whose text some rank has, in label-id order. The sketches
// are those the scan made of the label chunks it met (label_sketches, emptied here), and of the
// labels whose stored sample is the whole chunk, made by their owner; every label is sketched where
// its bytes are, and only the sketches (~150 bytes) travel. check_gather(bytes) runs on every rank
// before they are gathered, with the bytes of this rank's sketches (--memory).
std::vector<ChunkSketch> sketch_labels(comm::Transport& transport, const pipeline::LabelSet& labels,
                                       std::vector<LabelSketch>& label_sketches,
                                       const std::function<void(std::uint64_t)>& check_gather) {
  for (std::size_t i = 0; i < labels.owned.hashes.size(); ++i)
    if (labels.owned.samples[i].size() == labels.owned.lengths[i])  // the sample is the whole chunk
      label_sketches.push_back({labels.owned.hashes[i], sketch(labels.owned.samples[i])});
  std::uint64_t bytes = 0;
  for (const LabelSketch& l : label_sketches) bytes += sizeof(LabelSketch) - sizeof(ChunkSketch) + held_bytes(l.sketch);
  check_gather(bytes);
  std::vector<std::optional<ChunkSketch>> by_label(labels.total);
  for (auto& part : comm::allgather(transport, label_sketches)) {
    for (LabelSketch& l : part) {
      const std::uint64_t id = *labels.all.find(l.digest);
      if (!by_label[id]) by_label[id] = std::move(l.sketch);  // the same bytes wherever found (same SHA-1)
    }
  }
  label_sketches = {};
  std::vector<ChunkSketch> out;
  for (auto& s : by_label)
    if (s) out.push_back(std::move(*s));
  return out;
}

// Each distinct chunk's sketch, made once when the scan first meets it, and which of the chunks are
// labels. held() is what it keeps with the labeled set's bytes, for --memory.
class ScanSketches {
 public:
  ScanSketches(const pipeline::LabelSet& labels, std::uint64_t labels_bytes)
      : labels_(labels), labels_bytes_(labels_bytes) {}

  void add(const Digest& d, std::string_view text) {
    const auto [it, inserted] = sketch_of_.try_emplace(d, static_cast<std::uint32_t>(sketches_.size()));
    if (!inserted) return;
    sketches_.push_back(sketch(text));
    heap_ += held_bytes(sketches_.back()) - sizeof(ChunkSketch);
    if (labels_.all.find(d) != nullptr) labels_met_.push_back(d);
  }
  std::uint64_t held() const {
    return labels_bytes_ + heap_ + sketches_.capacity() * sizeof(ChunkSketch) + sketch_of_.size() * kMapNodeBytes +
           sketch_of_.bucket_count() * sizeof(void*) + labels_met_.capacity() * sizeof(Digest);
  }
  const ChunkSketch& of(const Digest& d) const { return sketches_[sketch_of_.at(d)]; }
  const std::vector<ChunkSketch>& all() const { return sketches_; }
  // The sketches of the label chunks the scan met.
  std::vector<LabelSketch> label_sketches() const {
    std::vector<LabelSketch> out;
    for (const Digest& d : labels_met_) out.push_back({d, of(d)});
    return out;
  }

 private:
  const pipeline::LabelSet& labels_;
  std::uint64_t labels_bytes_;
  std::unordered_map<Digest, std::uint32_t, DigestHasher> sketch_of_;
  std::vector<ChunkSketch> sketches_;
  std::vector<Digest> labels_met_;
  std::uint64_t heap_ = 0;  // the sketches' characters
};

// What /compare_hashing states beside its table; chunks and without_tlsh are this rank's.
struct CompareFacts {
  std::uint64_t labels = 0, labels_with_text = 0, chunks = 0, without_tlsh = 0;
};

// Collective: /compare_hashing, its attributes and the confusion table (one copy: rank 0's).
void write_compare_hashing(output::ResultFile& file, comm::Transport& transport, std::vector<output::ConfusionRow> rows,
                           const CompareFacts& facts, const CompareOptions& options) {
  std::uint64_t pages = 0, positives = 0;
  for (const auto& r : rows)
    if (r.method == "sha1") pages = r.tp + r.fp + r.fn + r.tn, positives = r.tp + r.fn;
  namespace s = output::schema;
  file.create_group(s::kCompareHashing);
  s::set_attribute(file, s::attr::kComparePages, pages);
  s::set_attribute(file, s::attr::kComparePositives, positives);
  s::set_attribute(file, s::attr::kCompareLabels, facts.labels);
  s::set_attribute(file, s::attr::kCompareLabelsWithText, facts.labels_with_text);
  s::set_attribute(file, s::attr::kCompareChunks, comm::sum(transport, facts.chunks));
  s::set_attribute(file, s::attr::kCompareChunksWithoutTlsh, comm::sum(transport, facts.without_tlsh));
  s::set_attribute(file, s::attr::kCompareExtrapolatePages, options.extrapolate_pages);
  s::set_attribute(file, s::attr::kCompareMinLabeled, options.min_labeled);
  if (transport.rank() != 0) rows.clear();  // one copy of the replicated table
  output::write_table(file, s::kConfusion, rows);
}

}  // namespace

void run_compare_hashing(const pipeline::CommonOptions& common, const pipeline::DiscoverOptions& stop_options,
                         const CompareOptions& options, comm::Transport& transport) {
  const auto points = sweep_points(options.sweep);
  pipeline::PhaseTimer timer;
  pipeline::with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    timer.start("load_labels");
    pipeline::LabelSet labels = pipeline::load_label_set(transport, options.labels, pipeline::JoinMode::Replicated, 0, common.memory_budget,
                                                           chunk::chunking_identity(common.scan.chunker, common.scan.chunking));
    const TruthPrefixes truth = load_truth(transport, options.truth);
    // --memory: L is on every rank whatever the rank count; the sketches count with the scan's
    // tables; the labels' texts, their sketches and the comparisons are checked before each starts.
    const std::uint64_t labels_bytes = pipeline::held_bytes(labels) + truth.held_bytes();
    pipeline::check_memory_held(transport, common, "the labeled set and the truth prefixes", labels_bytes);

    pipeline::CommonOptions scan_common = common;
    ScanSketches sketches(labels, labels_bytes);
    scan_common.scan.on_chunk = [&](const Digest& d, std::string_view text) { sketches.add(d, text); };
    pipeline::ScanRequest request = pipeline::scan_request(stop_options);
    request.keep_pages = true;
    request.held_bytes = [&] { return sketches.held(); };
    pipeline::ScanPhase p = pipeline::run_scan_phase(scan_common, request, transport, timer, file);
    const std::uint64_t tables = pipeline::memory_tables_bytes(p.shard);

    timer.start("sketch_labels");
    // Every rank receives every label's sketch (encoded, then decoded) and keeps a slot per label;
    // its own sketches are copied out of the scan's first.
    const auto check_gather = [&](std::uint64_t bytes) {
      pipeline::check_memory_peak(transport, common, "gathering the labels' sketches",
                                  tables + sketches.held() + bytes + 2 * comm::sum(transport, bytes) +
                                      labels.total * sizeof(std::optional<ChunkSketch>));
    };
    std::vector<LabelSketch> met = sketches.label_sketches();
    std::vector<ChunkSketch> label_sketches = sketch_labels(transport, labels, met, check_gather);
    LabelSketches index(label_sketches);  // copies what it compares with
    CompareFacts facts{labels.total, label_sketches.size(), p.shard.page_chunk_ids.size(), 0};
    label_sketches = {};

    timer.start("compare");
    const auto& chunks = p.shard.chunks;
    const std::uint64_t per_chunk = sizeof(std::uint64_t) + sizeof(Digest) + sizeof(const ChunkSketch*) + sizeof(BestScores);
    std::uint64_t requests = 0;  // owner_scores_bytes, without building the pointers first
    for (const ChunkSketch& s : sketches.all()) requests += held_bytes(s);
    pipeline::check_memory_peak(transport, common, "comparing the chunks with the labels",
                                tables + sketches.held() + index.memory_bytes() + chunks.distinct() * per_chunk +
                                    owner_scores_bytes(requests, chunks.distinct()));
    std::vector<std::uint64_t> sha1_label(chunks.distinct(), detect::kNoLabel);
    std::vector<Digest> digests(chunks.distinct());
    std::vector<const ChunkSketch*> chunk_sketches(chunks.distinct());
    for (std::uint32_t id = 0; id < chunks.distinct(); ++id) {
      digests[id] = chunks.digest(id);
      if (const std::uint64_t* label = labels.all.find(digests[id])) sha1_label[id] = *label;
      chunk_sketches[id] = &sketches.of(digests[id]);
    }
    CompareLines lines(transport, common.progress_interval);
    shuffle::ExchangeStats stats;
    const std::vector<BestScores> best =
        owner_best_scores(transport, digests, chunk_sketches, index, {common.round_bytes, &stats}, &lines);
    lines.finish();
    const auto is_stop = discover::stop_flags(chunks, p.stop.chunk_rules());
    for (const std::uint32_t id : p.shard.page_chunk_ids)
      if (sketches.of(chunks.digest(id)).tlsh.empty()) ++facts.without_tlsh;
    const ShardMatches shard{p.shard.page_offsets, p.shard.page_chunk_ids, p.shard.keys, is_stop, sha1_label, best};
    std::vector<output::ConfusionRow> rows =
        evaluate(transport, shard, truth, points, {options.page_threshold, options.min_labeled, options.extrapolate_pages});
    if (transport.rank() == 0) std::cout << format_tables(rows, options.extrapolate_pages) << std::flush;

    timer.start("write");
    write_compare_hashing(*file, transport, std::move(rows), facts, options);
    discover::ShuffleTotals shuffled;
    shuffled.add(stats);
    pipeline::finish_run(*file, transport, common, p, shuffled, timer);
  });
}

}  // namespace crd::compare
