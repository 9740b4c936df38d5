// compare-hashing's comparison on one rank (paper §6.5, Table 1): the LSH sketches of the chunks its
// scan meets, every label's sketch gathered from all ranks, each distinct chunk's best scores, and
// the confusion rows against a known truth. The job around it (pipeline/compare_hashing_pipeline.hpp)
// reads the labels and the corpus and checks --memory with the byte counts it gives here; the
// sketches stay inside this module.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/compare/compare_hashing.hpp"
#include "crd/detect/detection.hpp"
#include "crd/discover/digest_map.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/output/result_file.hpp"
#include "crd/output/result_rows.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::compare {

// Told how the comparisons go, for progress lines: begin() once, on every rank at the same point
// (a collective may follow), with the job's number of distinct chunks to compare; then done()
// with this rank's count so far, rank-locally, every kProgressStep chunks.
class CompareProgress {
 public:
  static constexpr std::uint64_t kProgressStep = 64;
  virtual ~CompareProgress() = default;
  virtual void begin(std::uint64_t job_chunks) = 0;
  virtual void done(std::uint64_t rank_chunks) = 0;
};

// The labeled set L, replicated: this rank's owned labels (with their samples), how many there are
// over all ranks, and every label's hash → id. It must outlive the comparison.
struct LabelsView {
  const detect::LabelSlice& owned;
  std::uint64_t total = 0;
  const discover::DigestMap<std::uint64_t>& all;
};

// One rank's scanned pages (indexed by local chunk id, as the scan's tally numbers its chunks).
struct ScannedPages {
  const discover::LocalTally& chunks;
  std::span<const std::uint64_t> page_offsets;
  std::span<const std::uint32_t> chunk_ids;
  std::span<const std::string> keys;
  std::span<const std::uint8_t> is_stop;  // discover::stop_flags of the chunks
};

class HashingComparison {
 public:
  // Throws UsageError for a malformed sweep (sweep_points), before anything is read.
  explicit HashingComparison(const CompareOptions& options);
  ~HashingComparison();
  HashingComparison(const HashingComparison&) = delete;
  HashingComparison& operator=(const HashingComparison&) = delete;

  // Collective: rank 0 reads options.truth; every rank gets its prefixes or the same UsageError.
  void load_truth(comm::Transport& transport);
  // What the truth prefixes hold (--memory: every rank holds them).
  std::uint64_t truth_bytes() const;

  // Before the scan: L, and the bytes held beside the sketches (L's and the truth's).
  void use_labels(const LabelsView& labels, std::uint64_t labels_bytes);
  // The scan's hook for every chunk's normalized bytes: each distinct chunk is sketched once.
  void add_chunk(const Digest& d, std::string_view text);
  // What the comparison holds beside the scan's tables (--memory): labels_bytes and the sketches.
  std::uint64_t held() const;

  // Collective, after the scan: sketches the owned labels whose sample is the whole chunk, and
  // returns what gathering every label's sketch adds on this rank at its peak beside held().
  std::uint64_t label_sketches_bytes(comm::Transport& transport);
  // Collective: every label's sketch whose text some rank has, on every rank; each label is
  // sketched where its bytes are, and only the sketches (~150 bytes) travel.
  void gather_label_sketches(comm::Transport& transport);

  // What scoring `distinct` chunks adds at its peak beside held() (--memory).
  std::uint64_t scoring_bytes(std::uint64_t distinct) const;
  // Collective: each distinct chunk's best scores against L, compared once over all ranks on the
  // rank owning its SHA-1 (owner_scores.hpp). config: the exchanges' round and traffic.
  void score_chunks(comm::Transport& transport, const discover::LocalTally& chunks,
                    const shuffle::ShuffleConfig& config, CompareProgress* progress);
  // Collective: one confusion row per sweep point, the same on every rank and for any rank count.
  std::vector<output::ConfusionRow> evaluate(comm::Transport& transport, const ScannedPages& pages);

  // The rows as text: Table 1 and the sweep (result_table.hpp).
  std::string tables(const std::vector<output::ConfusionRow>& rows) const;
  // Collective: /compare_hashing, its attributes and the confusion table (one copy: rank 0's).
  void write(output::ResultFile& file, comm::Transport& transport, std::vector<output::ConfusionRow> rows) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace crd::compare
