// compare-hashing's comparison on one rank (crd/compare/hashing_comparison.hpp).
//
// L is replicated on every rank. The LSH functions need L's text, which a result file keeps only as
// a ≤ sample-bytes prefix: a label's text is its sample when that is the whole chunk, else its
// bytes as met in the corpus (gathered from all ranks); labels whose text is in neither are counted
// (labels_with_text) and can match by SHA-1 only. Each distinct chunk is compared with all label
// sketches once, on the rank owning its SHA-1 (owner_scores.hpp); pages are scored as crd detect
// scores them, and the confusion counts are summed by allreduce, so the result is identical for any
// rank count.
#include "crd/compare/hashing_comparison.hpp"

#include <optional>
#include <tuple>
#include <unordered_map>

#include "chunk_sketch.hpp"
#include "crd/base/capped_text_file.hpp"
#include "crd/base/error.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/output/schema.hpp"
#include "owner_scores.hpp"
#include "page_confusion.hpp"
#include "result_table.hpp"
#include "sweep.hpp"

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
  if (const std::string e = comm::first_error(transport, error); !e.empty())
    throw UsageError(e.substr(e.find(": ") + 2));
  return TruthPrefixes::parse(comm::broadcast_from_rank0<std::string>(transport, text), path);
}

// A node of sketch_of (an unordered_map<Digest, uint32_t>): key, value, next pointer, cached hash,
// malloc's header (for --memory).
constexpr std::uint64_t kMapNodeBytes = sizeof(Digest) + 4 + 8 + 8 + 8;

// A label's sketch, made by the rank that met its text in the scan or that owns its sample.
struct LabelSketch {
  Digest digest;
  ChunkSketch sketch;
  static constexpr auto fields() { return std::tuple(&LabelSketch::digest, &LabelSketch::sketch); }
};

// Each distinct chunk's sketch, made once when the scan first meets it, and which of the chunks are
// labels. held() is what it keeps with the labeled set's bytes, for --memory.
class ScanSketches {
 public:
  ScanSketches(const LabelsView& labels, std::uint64_t labels_bytes) : labels_(labels), labels_bytes_(labels_bytes) {}

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
  LabelsView labels_;
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

}  // namespace

struct HashingComparison::Impl {
  CompareOptions options;
  std::vector<SweepPoint> points;
  std::optional<TruthPrefixes> truth;
  std::optional<LabelsView> labels;
  std::optional<ScanSketches> sketches;
  std::vector<LabelSketch> met;  // the label sketches this rank gathers from (the scan's, the owned samples')
  std::optional<LabelSketches> index;
  std::vector<BestScores> best;  // by local chunk id
  CompareFacts facts;
};

HashingComparison::HashingComparison(const CompareOptions& options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->points = sweep_points(options.sweep);
}

HashingComparison::~HashingComparison() = default;

void HashingComparison::load_truth(comm::Transport& transport) {
  impl_->truth = compare::load_truth(transport, impl_->options.truth);
}

std::uint64_t HashingComparison::truth_bytes() const { return impl_->truth->held_bytes(); }

void HashingComparison::use_labels(const LabelsView& labels, std::uint64_t labels_bytes) {
  impl_->labels.emplace(labels);
  impl_->sketches.emplace(*impl_->labels, labels_bytes);
}

void HashingComparison::add_chunk(const Digest& d, std::string_view text) { impl_->sketches->add(d, text); }

std::uint64_t HashingComparison::held() const { return impl_->sketches->held(); }

std::uint64_t HashingComparison::label_sketches_bytes(comm::Transport& transport) {
  // The sketches of the label chunks the scan met, and of the labels whose stored sample is the
  // whole chunk, made by their owner.
  const LabelsView& labels = *impl_->labels;
  std::vector<LabelSketch>& met = impl_->met;
  met = impl_->sketches->label_sketches();
  for (std::size_t i = 0; i < labels.owned.hashes.size(); ++i)
    if (labels.owned.samples[i].size() == labels.owned.lengths[i])  // the sample is the whole chunk
      met.push_back({labels.owned.hashes[i], sketch(labels.owned.samples[i])});
  std::uint64_t bytes = 0;
  for (const LabelSketch& l : met) bytes += sizeof(LabelSketch) - sizeof(ChunkSketch) + held_bytes(l.sketch);
  // Every rank receives every label's sketch (encoded, then decoded) and keeps a slot per label.
  return bytes + 2 * comm::sum(transport, bytes) + labels.total * sizeof(std::optional<ChunkSketch>);
}

void HashingComparison::gather_label_sketches(comm::Transport& transport) {
  const LabelsView& labels = *impl_->labels;
  std::vector<std::optional<ChunkSketch>> by_label(labels.total);
  for (auto& part : comm::allgather(transport, impl_->met)) {
    for (LabelSketch& l : part) {
      const std::uint64_t id = *labels.all.find(l.digest);
      if (!by_label[id]) by_label[id] = std::move(l.sketch);  // the same bytes wherever found (same SHA-1)
    }
  }
  impl_->met = {};
  std::vector<ChunkSketch> label_sketches;
  for (auto& s : by_label)
    if (s) label_sketches.push_back(std::move(*s));
  impl_->index.emplace(label_sketches);  // copies what it compares with
  impl_->facts.labels = labels.total;
  impl_->facts.labels_with_text = label_sketches.size();
}

std::uint64_t HashingComparison::scoring_bytes(std::uint64_t distinct) const {
  const std::uint64_t per_chunk =
      sizeof(std::uint64_t) + sizeof(Digest) + sizeof(const ChunkSketch*) + sizeof(BestScores);
  std::uint64_t requests = 0;  // owner_scores_bytes, without building the pointers first
  for (const ChunkSketch& s : impl_->sketches->all()) requests += held_bytes(s);
  return impl_->index->memory_bytes() + distinct * per_chunk + owner_scores_bytes(requests, distinct);
}

void HashingComparison::score_chunks(comm::Transport& transport, const discover::LocalTally& chunks,
                                     const shuffle::ShuffleConfig& config, CompareProgress* progress) {
  std::vector<Digest> digests(chunks.distinct());
  std::vector<const ChunkSketch*> chunk_sketches(chunks.distinct());
  for (std::uint32_t id = 0; id < chunks.distinct(); ++id) {
    digests[id] = chunks.digest(id);
    chunk_sketches[id] = &impl_->sketches->of(digests[id]);
  }
  impl_->best = owner_best_scores(transport, digests, chunk_sketches, *impl_->index, config, progress);
}

std::vector<output::ConfusionRow> HashingComparison::evaluate(comm::Transport& transport, const ScannedPages& pages) {
  const discover::LocalTally& chunks = pages.chunks;
  std::vector<std::uint64_t> sha1_label(chunks.distinct(), detect::kNoLabel);
  for (std::uint32_t id = 0; id < chunks.distinct(); ++id)
    if (const std::uint64_t* label = impl_->labels->all.find(chunks.digest(id))) sha1_label[id] = *label;
  impl_->facts.chunks = pages.chunk_ids.size();
  for (const std::uint32_t id : pages.chunk_ids)
    if (impl_->sketches->of(chunks.digest(id)).tlsh.empty()) ++impl_->facts.without_tlsh;
  const ShardMatches shard{pages.page_offsets, pages.chunk_ids, pages.keys, pages.is_stop, sha1_label, impl_->best};
  const CompareOptions& o = impl_->options;
  return compare::evaluate(transport, shard, *impl_->truth, impl_->points,
                           {o.page_threshold, o.min_labeled, o.extrapolate_pages});
}

std::string HashingComparison::tables(const std::vector<output::ConfusionRow>& rows) const {
  return format_tables(rows, impl_->options.extrapolate_pages);
}

void HashingComparison::write(output::ResultFile& file, comm::Transport& transport,
                              std::vector<output::ConfusionRow> rows) const {
  const CompareFacts& facts = impl_->facts;
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
  s::set_attribute(file, s::attr::kCompareExtrapolatePages, impl_->options.extrapolate_pages);
  s::set_attribute(file, s::attr::kCompareMinLabeled, impl_->options.min_labeled);
  if (transport.rank() != 0) rows.clear();  // one copy of the replicated table
  output::write_table(file, s::kConfusion, rows);
}

}  // namespace crd::compare
