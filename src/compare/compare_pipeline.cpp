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
#include <iostream>
#include <optional>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "chunk_sketch.hpp"
#include "crd/base/error.hpp"
#include "crd/compare/compare_hashing.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/output/schema.hpp"
#include "crd/pipeline/chunking_identity.hpp"
#include "crd/pipeline/detect_pipeline.hpp"
#include "crd/pipeline/label_set.hpp"
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
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    if (!in || !(s << in.rdbuf())) error = "cannot read truth file '" + path + "'";
    text = s.str();
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

// A label's text as one rank met it.
struct LabelText {
  Digest digest;
  std::string text;
  static constexpr auto fields() { return std::tuple(&LabelText::digest, &LabelText::text); }
};

// Collective: a sketch of every label whose text some rank has, in label-id order. The texts are
// the label chunks the scan met, and the labels whose stored sample is the whole chunk.
std::vector<ChunkSketch> sketch_labels(comm::Transport& transport, const pipeline::LabelSet& labels,
                                       std::vector<LabelText> label_texts) {
  for (std::size_t i = 0; i < labels.owned.hashes.size(); ++i)
    if (labels.owned.samples[i].size() == labels.owned.lengths[i])  // the sample is the whole chunk
      label_texts.push_back({labels.owned.hashes[i], labels.owned.samples[i]});
  std::vector<std::optional<ChunkSketch>> by_label(labels.total);
  for (const auto& part : comm::allgather(transport, label_texts)) {
    for (const LabelText& l : part) {
      const std::uint64_t id = *labels.all.find(l.digest);
      if (!by_label[id]) by_label[id] = sketch(l.text);  // the same bytes wherever found (same SHA-1)
    }
  }
  std::vector<ChunkSketch> label_sketches;
  for (auto& s : by_label)
    if (s) label_sketches.push_back(std::move(*s));
  return label_sketches;
}

}  // namespace

void run_compare_hashing(const pipeline::CommonOptions& common, const pipeline::DiscoverOptions& stop_options,
                         const CompareOptions& options, comm::Transport& transport) {
  const auto points = sweep_points(options.sweep);
  pipeline::PhaseTimer timer;
  pipeline::with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    timer.start("load_labels");
    pipeline::LabelSet labels = pipeline::load_label_set(transport, options.labels, pipeline::JoinMode::Replicated, 0, common.memory_budget,
                                                           pipeline::chunking_identity(common.scan));
    const TruthPrefixes truth = load_truth(transport, options.truth);

    // The scan hook: sketch each distinct chunk once; keep the text of chunks that are labels.
    pipeline::CommonOptions scan_common = common;
    std::unordered_map<Digest, std::uint32_t, DigestHasher> sketch_of;
    std::vector<ChunkSketch> sketches;
    std::vector<LabelText> label_texts;
    scan_common.scan.on_chunk = [&](const Digest& d, std::string_view text) {
      const auto [it, inserted] = sketch_of.try_emplace(d, static_cast<std::uint32_t>(sketches.size()));
      if (!inserted) return;
      sketches.push_back(sketch(text));
      if (labels.all.find(d) != nullptr) label_texts.push_back({d, std::string(text)});
    };
    pipeline::ScanRequest request = pipeline::scan_request(stop_options);
    request.keep_pages = true;
    pipeline::ScanPhase p = pipeline::run_scan_phase(scan_common, request, transport, timer, file);

    timer.start("sketch_labels");
    const std::vector<ChunkSketch> label_sketches = sketch_labels(transport, labels, std::move(label_texts));
    LabelSketches index(label_sketches);

    timer.start("compare");
    const auto& chunks = p.shard.chunks;
    std::vector<std::uint64_t> sha1_label(chunks.distinct(), detect::kNoLabel);
    std::vector<Digest> digests(chunks.distinct());
    std::vector<const ChunkSketch*> chunk_sketches(chunks.distinct());
    for (std::uint32_t id = 0; id < chunks.distinct(); ++id) {
      digests[id] = chunks.digest(id);
      if (const std::uint64_t* label = labels.all.find(digests[id])) sha1_label[id] = *label;
      chunk_sketches[id] = &sketches[sketch_of.at(digests[id])];
    }
    CompareLines lines(transport, common.progress_interval);
    const std::vector<BestScores> best = owner_best_scores(transport, digests, chunk_sketches, index, &lines);
    lines.finish();
    const auto is_stop = pipeline::stop_flags(chunks, p.stop.chunk_rules());
    std::uint64_t without_tlsh = 0;
    for (const std::uint32_t id : p.shard.page_chunk_ids)
      if (sketches[sketch_of.at(chunks.digest(id))].tlsh.empty()) ++without_tlsh;
    const ShardMatches shard{p.shard.page_offsets, p.shard.page_chunk_ids, p.shard.keys, is_stop, sha1_label, best};
    std::vector<output::ConfusionRow> rows =
        evaluate(transport, shard, truth, points, {options.page_threshold, options.min_labeled, options.extrapolate_pages});

    std::uint64_t pages = 0, positives = 0;
    for (const auto& r : rows)
      if (r.method == "sha1") pages = r.tp + r.fp + r.fn + r.tn, positives = r.tp + r.fn;
    if (transport.rank() == 0) std::cout << format_tables(rows, options.extrapolate_pages) << std::flush;

    timer.start("write");
    namespace s = output::schema;
    file->create_group(s::kCompareHashing);
    s::set_attribute(*file, s::attr::kComparePages, pages);
    s::set_attribute(*file, s::attr::kComparePositives, positives);
    s::set_attribute(*file, s::attr::kCompareLabels, labels.total);
    s::set_attribute(*file, s::attr::kCompareLabelsWithText, static_cast<std::uint64_t>(label_sketches.size()));
    s::set_attribute(*file, s::attr::kCompareChunks, comm::sum(transport, p.shard.page_chunk_ids.size()));
    s::set_attribute(*file, s::attr::kCompareChunksWithoutTlsh, comm::sum(transport, without_tlsh));
    s::set_attribute(*file, s::attr::kCompareExtrapolatePages, options.extrapolate_pages);
    s::set_attribute(*file, s::attr::kCompareMinLabeled, options.min_labeled);
    if (transport.rank() != 0) rows.clear();  // one copy of the replicated table
    output::write_table(*file, s::kConfusion, rows);
    pipeline::finish_run(*file, transport, common, p, discover::ShuffleTotals{}, timer);
  });
}

}  // namespace crd::compare
