// Shared start and end of the pipelines.
#include "crd/pipeline/scan_phase.hpp"

#include "crd/pipeline/memory_budget.hpp"
#include "crd/pipeline/progress.hpp"

namespace crd::pipeline {

ScanPhase run_scan_phase(const CommonOptions& common, const DiscoverOptions& options, bool keep_pages,
                         comm::MpiTransport& transport, PhaseTimer& timer, std::optional<output::ResultFile>& file) {
  ScanPhase p;
  timer.start("expand");
  const auto files = io::expand_inputs(common.inputs, p.expand_counters);
  const auto shards = io::assign_shards(files, transport.size());
  if (!options.stop_chunks.empty()) p.stop = discover::StopList::load(options.stop_chunks);
  file.emplace(transport, common.output);

  timer.start("scan");
  discover::ScanOptions scan = common.scan;
  scan.keep_page_chunks = keep_pages;
  const auto& mine = shards[static_cast<std::size_t>(transport.rank())];
  std::uint64_t shard_bytes = 0;
  for (std::size_t i : mine) shard_bytes += files[i].size;
  MemoryBudget budget(common.memory_budget, common.round_bytes, transport.rank(), transport.size());
  budget.check_fixed(transport);
  Progress progress(transport, "scan", total_bytes(files), common.progress_interval);
  p.shard = discover::scan_shard(files, mine, scan,
                                 [&](const discover::ScannedShard& shard, std::uint64_t bytes, std::uint64_t docs) {
                                   progress.update(bytes, docs);
                                   return budget.scan_fits(shard, bytes, shard_bytes);
                                 });
  progress.finish(transport);
  budget.check_before_exchange(transport, p.shard);
  return p;
}

void finish_run(output::ResultFile& file, comm::MpiTransport& transport, const CommonOptions& common, ScanPhase& scan,
                const discover::ShuffleTotals& shuffled, PhaseTimer& timer) {
  Counters& counters = scan.shard.counters;
  if (transport.rank() == 0) counters.merge(scan.expand_counters);
  counters.add("shuffle.bytes_sent", shuffled.bytes_sent);
  Counters merged = merge_counters(transport, counters);
  // Maxima over ranks, added once: the busiest rank is what a budget must cover.
  const std::uint64_t peak = transport.max(peak_rss_bytes());
  const std::uint64_t tables = transport.max(MemoryBudget::tables_bytes(scan.shard));
  const std::uint64_t sent_max = transport.max(shuffled.bytes_sent);
  merged.add("memory.peak_rss_max", peak);
  merged.add("memory.tables_max", tables);
  merged.add("memory.budget", common.memory_budget);
  merged.add("shuffle.bytes_sent_max", sent_max);
  merged.add("shuffle.rounds", transport.max(shuffled.rounds));  // every rank joins every round
  timer.stop();
  write_run_report(file, transport, common.info, merged, timer, scan.shard.errors);
  file.commit();
}

}  // namespace crd::pipeline
