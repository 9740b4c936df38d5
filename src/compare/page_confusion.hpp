// Page detection scored against a known truth, for every sweep point: which pages each method
// flags (containment > page threshold, as crd detect), and the confusion counts over all ranks.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chunk_sketch.hpp"
#include "crd/comm/transport.hpp"
#include "crd/detect/threshold.hpp"
#include "crd/output/result_rows.hpp"
#include "sweep.hpp"

namespace crd::compare {

// The truth: URL prefixes (page keys as crd writes them, host/path…) whose pages are positives.
class TruthPrefixes {
 public:
  // One prefix per line of `text`, without the ASCII whitespace around it (a CR before the LF
  // included); lines then blank or starting with '#' are skipped. Throws UsageError (naming
  // `source`) when there is none.
  static TruthPrefixes parse(std::string_view text, const std::string& source);
  // The key is the prefix, or continues it at a '/' (host1 does not cover host10/…).
  bool positive(std::string_view key) const;
  std::size_t size() const { return prefixes_.size(); }
  // What the prefixes hold in memory, for --memory (every rank holds them).
  std::uint64_t held_bytes() const {
    std::uint64_t bytes = prefixes_.capacity() * sizeof(std::string);
    for (const std::string& p : prefixes_) bytes += p.capacity() > 15 ? p.capacity() + 1 : 0;  // past the SSO buffer
    return bytes;
  }

 private:
  std::vector<std::string> prefixes_;
};

// One rank's pages with what each method knows of their chunks (indexed by local chunk id).
struct ShardMatches {
  std::span<const std::uint64_t> page_offsets;
  std::span<const std::uint32_t> chunk_ids;
  std::span<const std::string> keys;
  std::span<const std::uint8_t> is_stop;
  std::span<const std::uint64_t> sha1_label;  // label id or detect::kNoLabel
  std::span<const BestScores> best;
};

struct EvaluationOptions {
  detect::Threshold page_threshold;
  std::uint64_t min_labeled = 1;
  double extrapolate_pages = 2.86e9;
};

// Collective. One row per sweep point, identical on every rank and for any rank count. Pages are
// those crd detect scores (≥ 1 chunk after stop-chunk removal). One page threshold serves every
// row; `auto` is mean + σ of the first point's containments (SHA-1's, as crd detect computes it).
std::vector<output::ConfusionRow> evaluate(comm::Transport& transport, const ShardMatches& shard,
                                           const TruthPrefixes& truth, const std::vector<SweepPoint>& points,
                                           const EvaluationOptions& options);

}  // namespace crd::compare
