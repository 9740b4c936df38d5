// Shared start and end of the pipelines.
#include "crd/pipeline/scan_phase.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

#include "checkpoint/checkpoint_codec.hpp"
#include "crd/base/error.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/pipeline/output_check.hpp"
#include "crd/scan/input_listing.hpp"
#include "memory_budget.hpp"
#include "progress.hpp"
#include "reader_thread_choice.hpp"

namespace crd::pipeline {

void with_result_file(comm::Transport& transport,
                      const std::function<void(std::optional<output::ResultFile>& file)>& body) {
  std::optional<output::ResultFile> file;
  try {
    body(file);
  } catch (const UsageError&) {
    throw;
  } catch (const FatalError&) {
    throw;
  } catch (const std::exception& e) {
    transport.abort_all(e.what());
  }
}

ScanRequest scan_request(const DiscoverOptions& options) {
  ScanRequest request;
  request.stop_chunks = options.stop_chunks;
  request.min_chunk_length = options.min_chunk_length;
  request.keep_counts = options.keep_counts;
  return request;
}

ScanPhase run_scan_phase(const CommonOptions& common, const ScanRequest& request, const MemoryBudget& budget,
                         comm::Transport& transport, PhaseTimer& timer, std::optional<output::ResultFile>& file) {
  const auto held = [&]() -> std::uint64_t { return request.held_bytes ? request.held_bytes() : 0; };
  ScanPhase p;
  p.budget = &budget;
  timer.start("expand");
  // A checkpointed job's fingerprint covers every input: rank 0 then lists them all.
  scan::InputShare inputs =
      scan::share_inputs(transport, common.inputs, guarded_expansion(common.expand, common.output, common.work_dir),
                         p.expand_log, !common.work_dir.empty());
  check_output_is_not_input(transport, common.output, inputs.files);  // each rank looks at the files it holds
  const std::vector<io::InputFile>& files = inputs.files;
  const std::vector<std::size_t>& mine = inputs.mine;
  p.stop = discover::StopItems(request.stop_chunks, request.min_chunk_length);
  // The fingerprint stats every input again: only worth it when checkpoints are kept, and done once.
  const std::string fingerprint =
      common.work_dir.empty()
          ? std::string()
          : comm::broadcast_from_rank0(
                transport, transport.rank() == 0 ? job_fingerprint(common.info.command, common.info.results_config,
                                                                   transport.size(), inputs.files, common.side_inputs)
                                                 : std::string());
  p.checkpoints.emplace(transport, common.work_dir, fingerprint, common.resume);
  file.emplace(transport, common.output);

  timer.start("scan");
  scan::ScanOptions scan = common.scan;
  scan.keep_page_chunks = request.keep_pages;
  // A rank bound to one core (mpirun's default binding) would run both threads on that core, and
  // on a node full of ranks the thread competes with them: the affinity and the node decide too.
  ReaderThreadContext context = shard_bytes_context(files, mine);
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  context.usable_cpus = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
  context.node_cpus = std::thread::hardware_concurrency();
  context.ranks_on_node = transport.ranks_on_node();
  scan.reader_thread = use_reader_thread(common.reader_thread, context);
  const std::uint64_t shard_bytes = context.total_bytes;
  budget.check_fixed();
  ScanMeter meter(budget);
  Progress progress(transport, "scan", inputs.job_bytes, common.progress_interval);
  std::uint64_t bytes_read = shard_bytes;  // all of it, unless the budget stops the scan
  const bool resumed = p.checkpoints->load("scan", [&](BinaryFileReader& in) { p.shard = load_shard(in); });
  if (!resumed) {
    const auto fits = [&](const scan::ScannedShard& shard, std::uint64_t bytes) {
      bytes_read = bytes;
      return meter.fits(shard, bytes, shard_bytes, held());
    };
    p.shard = scan::scan_shard(
        files, mine, scan,
        [&](const scan::ScannedShard& shard, std::uint64_t bytes, std::uint64_t docs) {
          progress.update(bytes, docs);
          fault_point("scan", transport.rank());
          return fits(shard, bytes);
        },
        fits);
    if (!meter.stopped()) p.checkpoints->save("scan", [&](BinaryFileWriter& out) { save_shard(out, p.shard); });
  }
  p.checkpoints->agree_saved();  // every rank, resumed or not
  progress.finish(transport);
  fault_point("after_scan", transport.rank());
  p.held = held();
  p.passes = budget.plan_passes(transport, p.shard, meter, request.out_of_core, p.held, request.keep_counts);
  p.bytes_read = resumed ? 0 : bytes_read;
  p.shard_bytes = shard_bytes;
  if (p.passes > 1) {
    p.tables_max = MemoryBudget::tables_bytes(p.shard);
    p.shard = scan::ScannedShard{};  // the passes read the shard again, a slice of the hashes each
    p.files = files;
    p.mine = mine;
    p.scan_options = scan;
    p.job_bytes = inputs.job_bytes;
  }
  return p;
}

Counters run_resources(comm::Transport& transport, const CommonOptions& common, std::uint64_t tables_bytes,
                       const discover::ShuffleTotals& shuffled, std::uint32_t passes, std::uint64_t bytes_reread) {
  Counters resources;
  resources.add("memory.peak_rss_max", comm::max(transport, peak_rss_bytes()));
  resources.add("memory.tables_max", comm::max(transport, tables_bytes));
  resources.add("memory.budget", common.memory_budget);
  // Out-of-core counting (docs/memory.md): passes over the hash space, and the input read again.
  resources.add("counting.passes", comm::max(transport, std::uint64_t{passes}));
  resources.add("counting.bytes_reread", comm::sum(transport, bytes_reread));
  resources.add("shuffle.bytes_sent", comm::sum(transport, shuffled.bytes_sent));
  resources.add("shuffle.bytes_sent_max", comm::max(transport, shuffled.bytes_sent));
  resources.add("shuffle.bytes_sent_min", comm::min(transport, shuffled.bytes_sent));
  resources.add("shuffle.rounds", comm::max(transport, shuffled.rounds));  // every rank joins every round
  return resources;
}

void finish_run(output::ResultFile& file, comm::Transport& transport, const CommonOptions& common, ScanPhase& scan,
                const discover::ShuffleTotals& shuffled, PhaseTimer& timer) {
  Counters& counters = scan.shard.counters;
  counters.merge(scan.expand_log.counters);
  scan.shard.errors.insert(scan.shard.errors.end(), scan.expand_log.errors.begin(), scan.expand_log.errors.end());
  const Counters merged = merge_counters(transport, counters);
  // How the run went, not what it found: these depend on the rank count and the machine, so they
  // stay out of /run/counters, which is identical for any rank count and any restart.
  const Counters resources =
      run_resources(transport, common, std::max(scan.tables_max, MemoryBudget::tables_bytes(scan.shard)), shuffled,
                    scan.passes, scan.bytes_read - std::min(scan.bytes_read, scan.shard_bytes));
  timer.stop();
  write_run_report(file, transport, common.info, merged, resources, timer, scan.shard.errors);
  file.commit();
  scan.checkpoints->remove_all();
}

}  // namespace crd::pipeline
