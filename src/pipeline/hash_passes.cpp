// The pass loop of out-of-core counting, and the discover and detect steps it repeats.
#include "hash_passes.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/pipeline/detect_pipeline.hpp"
#include "memory_budget.hpp"
#include "progress.hpp"

namespace crd::pipeline {
namespace {

// Collective. Scans the shard once per pass and hands each pass's shard to `body`. A pass whose
// tables still pass the budget (the hashes of a shard are not exactly uniform over the slices, or
// the first scan's projection was short) makes every rank start again with more passes: `restart`
// then drops what the bodies gathered. Pass 0's counters and errors (every pass reads the same
// documents) and the last pass's page keys stay in p.shard. keep_counts: the bodies keep each pass's
// count rows (--keep-counts), which the restart's plan counts.
void for_each_pass(comm::Transport& transport, ScanPhase& p, const CommonOptions& common, bool keep_pages,
                   bool keep_counts, const discover::LabelRules* stop, const std::function<void()>& restart,
                   const std::function<void(scan::ScannedShard&)>& body) {
  for (;;) {
    restart();
    bool overflow = false;
    for (std::uint32_t k = 0; k < p.passes && !overflow; ++k) {
      scan::ScanOptions options = p.scan_options;
      options.pass = {k, p.passes};
      options.keep_page_chunks = keep_pages;
      if (stop != nullptr)
        options.is_stop = [stop](const Digest& d, std::uint64_t length) { return stop->is_stop(d, length); };
      const MemoryBudget& budget = *p.budget;
      ScanMeter meter(budget);
      Progress progress(transport, "scan, pass " + std::to_string(k + 1) + " of " + std::to_string(p.passes),
                        p.job_bytes, common.progress_interval);
      std::uint64_t read = p.shard_bytes;
      const auto fits = [&](const scan::ScannedShard& s, std::uint64_t bytes) {
        read = bytes;
        return meter.fits(s, bytes, p.shard_bytes, p.held);
      };
      scan::ScannedShard shard = scan::scan_shard(
          p.files, p.mine, options,
          [&](const scan::ScannedShard& s, std::uint64_t bytes, std::uint64_t docs) {
            progress.update(bytes, docs);
            return fits(s, bytes);
          },
          fits);
      progress.finish(transport);
      p.bytes_read += read;
      p.tables_max = std::max(p.tables_max, MemoryBudget::tables_bytes(shard));
      // The same on every rank. A projection from a short prefix can be far off either way, so the
      // passes at most double per restart (at most twice the passes needed, never a wild jump).
      const std::uint32_t more =
          std::min(budget.plan_passes(transport, shard, meter, true, p.held, keep_counts, p.passes), 2u);
      if (more > 1) {
        if (std::uint64_t{p.passes} * more > MemoryBudget::kMaxPasses)
          throw FatalError("--memory " + human_bytes(budget.budget()) + " per rank is too small even for " +
                           std::to_string(MemoryBudget::kMaxPasses) +
                           " passes over the hash space: raise --memory or run with more ranks");
        p.passes *= more;
        overflow = true;
        break;
      }
      if (k == 0) {
        p.shard.counters = std::move(shard.counters);
        p.shard.errors = std::move(shard.errors);
      }
      body(shard);
      if (k + 1 == p.passes) p.shard.keys = std::move(shard.keys);
    }
    if (!overflow) return;
  }
}

}  // namespace

DiscoveryPhase discover_in_passes(comm::Transport& transport, ScanPhase& p, const CommonOptions& common,
                                  const DiscoverOptions& options, discover::ShuffleTotals& shuffled) {
  const discover::LabelRules chunk_rules = p.stop.chunk_rules(options.chunk_threshold, options.chunk_top);
  const discover::LabelRules file_rules = p.stop.file_rules(options.file_threshold, options.file_top);
  discover::PassCandidates chunks;
  discover::PassCandidates files;
  for_each_pass(
      transport, p, common, false, options.keep_counts, nullptr,
      [&] {
        chunks = {};
        files = {};
      },
      [&](scan::ScannedShard& shard) {
        discover::count_pass(transport, shard.chunks, shard.keys, chunk_rules, common.round_bytes, shuffled, chunks,
                             options.keep_counts);
        discover::count_pass(transport, shard.files, shard.keys, file_rules, common.round_bytes, shuffled, files,
                             options.keep_counts);
      });
  DiscoveryPhase d;
  d.chunks = discover::finish_passes(transport, std::move(chunks), chunk_rules, common.round_bytes);
  d.files = discover::finish_passes(transport, std::move(files), file_rules, common.round_bytes);
  return d;
}

detect::PageScores score_in_passes(comm::Transport& transport, ScanPhase& p, const CommonOptions& common,
                                   const LabelSet& labels, const discover::LabelRules& stop,
                                   discover::ShuffleTotals& shuffled) {
  detect::PageScores scores;
  bool first = true;
  for_each_pass(
      transport, p, common, true, false, &stop,
      [&] {
        scores = {};
        first = true;
      },
      [&](scan::ScannedShard& shard) {
        const auto label_of = join_labels(transport, labels, shard.chunks, common.round_bytes, shuffled);
        const auto stops = discover::stop_flags(shard.chunks, stop);
        detect::PageScores pass = detect::score_pages(shard.page_offsets, shard.page_chunk_ids, label_of, stops);
        if (first) {
          scores = std::move(pass);
          first = false;
        } else {
          detect::add_pass_scores(scores, pass);
        }
      });
  return scores;
}

}  // namespace crd::pipeline
