// Shared start and end of the pipelines.
#include "crd/pipeline/scan_phase.hpp"

#include <sched.h>

#include <thread>

#include "crd/core/error.hpp"
#include "crd/shuffle/byte_codec.hpp"
#include "crd/pipeline/checkpoint_codec.hpp"
#include "crd/pipeline/memory_budget.hpp"
#include "crd/pipeline/progress.hpp"

namespace crd::pipeline {

void with_result_file(const std::function<void(std::optional<output::ResultFile>& file)>& body) {
  std::optional<output::ResultFile> file;
  try {
    body(file);
  } catch (const UsageError&) {
    throw;
  } catch (const FatalError&) {
    throw;
  } catch (const std::exception& e) {
    comm::abort_job(e.what());
  }
}

namespace {

// Rank 0 walks the inputs once and shares the list: every rank walking the same trees cost a stat
// per file per rank and grew with the rank count (0.7 s → 2.6 s from 1 to 4 ranks on 55k files).
// The stat calls (half the walk) are then shared: each rank stats a contiguous slice of the list
// and the sizes are gathered. A usage error found by rank 0 is raised on every rank alike; a file
// that vanished before its stat is dropped on every rank alike.
std::vector<io::InputFile> expand_everywhere(comm::Transport& transport, const std::vector<std::string>& inputs,
                                             Counters& counters) {
  shuffle::ByteWriter w;
  if (transport.rank() == 0) {
    try {
      const auto files = io::list_inputs(inputs, counters);
      w.pod(std::uint8_t{1}).pod(static_cast<std::uint64_t>(files.size()));
      for (const auto& f : files) w.str(f.path).str(f.url).pod(f.size).pod(static_cast<std::uint8_t>(f.kind));
    } catch (const UsageError& e) {
      w.clear();
      w.pod(std::uint8_t{0}).str(e.what());
    }
  }
  const auto bytes = w.bytes();
  const std::string listed = transport.from_rank0(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  shuffle::ByteReader r(std::as_bytes(std::span<const char>(listed.data(), listed.size())));
  if (r.pod<std::uint8_t>() == 0) throw UsageError(std::string(r.str()));
  std::vector<io::InputFile> files(static_cast<std::size_t>(r.pod<std::uint64_t>()));
  for (auto& f : files) {
    f.path = std::string(r.str());
    f.url = std::string(r.str());
    f.size = r.pod<std::uint64_t>();
    f.kind = static_cast<io::InputKind>(r.pod<std::uint8_t>());
  }

  const auto n = static_cast<std::uint64_t>(files.size());
  const auto nranks = static_cast<std::uint64_t>(transport.size());
  const auto rank = static_cast<std::uint64_t>(transport.rank());
  const std::span<io::InputFile> mine =
      std::span<io::InputFile>(files).subspan(n * rank / nranks, n * (rank + 1) / nranks - n * rank / nranks);
  io::stat_sizes(mine, counters);
  std::vector<std::uint64_t> my_sizes;
  for (const auto& f : mine) my_sizes.push_back(f.size);
  const auto sizes = transport.allgather_pods(std::span<const std::uint64_t>(my_sizes));  // in rank order
  for (std::size_t i = 0; i < files.size(); ++i) files[i].size = sizes[i];
  io::drop_unsized(files);
  io::require_inputs(files, inputs);
  return files;
}

}  // namespace

ScanPhase run_scan_phase(const CommonOptions& common, const DiscoverOptions& options, bool keep_pages,
                         comm::MpiTransport& transport, PhaseTimer& timer, std::optional<output::ResultFile>& file) {
  ScanPhase p;
  timer.start("expand");
  const auto files = expand_everywhere(transport, common.inputs, p.expand_counters);
  const auto shards = io::assign_shards(files, transport.size());
  if (!options.stop_chunks.empty()) p.stop = discover::StopList::load(options.stop_chunks);
  // The fingerprint stats every input again: only worth it when checkpoints are kept.
  const std::string fingerprint =
      common.work_dir.empty() ? std::string()
                              : job_fingerprint(common.info.command, common.info.config_ini, transport.size(), files);
  p.checkpoints.emplace(transport, common.work_dir, fingerprint, common.resume);
  file.emplace(transport, common.output);

  timer.start("scan");
  discover::ScanOptions scan = common.scan;
  scan.keep_page_chunks = keep_pages;
  // A reader thread helps only with a spare core: on a node full of ranks it would compete, and a
  // rank bound to one core (mpirun's default binding) runs both threads on that core.
  const unsigned cores = std::thread::hardware_concurrency();
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const int usable = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
  scan.reader_thread = common.reader_thread == "on" ||
                       (common.reader_thread == "auto" && usable >= 2 &&
                        cores >= 2u * static_cast<unsigned>(transport.ranks_on_node()));
  const auto& mine = shards[static_cast<std::size_t>(transport.rank())];
  std::uint64_t shard_bytes = 0;
  for (std::size_t i : mine) shard_bytes += files[i].size;
  MemoryBudget budget(common.memory_budget, common.round_bytes, transport.rank(), transport.size());
  budget.check_fixed();
  Progress progress(transport, "scan", total_bytes(files), common.progress_interval);
  const bool resumed = p.checkpoints->load("scan", [&](BinaryFileReader& in) { p.shard = load_shard(in); });
  if (!resumed) {
    p.shard = discover::scan_shard(files, mine, scan,
                                   [&](const discover::ScannedShard& shard, std::uint64_t bytes, std::uint64_t docs) {
                                     progress.update(bytes, docs);
                                     fault_point("scan", transport.rank());
                                     return budget.scan_fits(shard, bytes, shard_bytes);
                                   });
    if (!budget.stopped())
      p.checkpoints->save("scan", [&](BinaryFileWriter& out) { save_shard(out, p.shard); });
  }
  progress.finish(transport);
  fault_point("after_scan", transport.rank());
  budget.check_before_exchange(transport, p.shard);
  return p;
}

void finish_run(output::ResultFile& file, comm::MpiTransport& transport, const CommonOptions& common, ScanPhase& scan,
                const discover::ShuffleTotals& shuffled, PhaseTimer& timer) {
  Counters& counters = scan.shard.counters;
  counters.merge(scan.expand_counters);
  const Counters merged = merge_counters(transport, counters);
  // How the run went, not what it found: these depend on the rank count and the machine, so they
  // stay out of /run/counters, which is identical for any rank count and any restart.
  Counters resources;
  resources.add("memory.peak_rss_max", transport.max(peak_rss_bytes()));
  resources.add("memory.tables_max", transport.max(MemoryBudget::tables_bytes(scan.shard)));
  resources.add("memory.budget", common.memory_budget);
  resources.add("shuffle.bytes_sent", transport.sum(shuffled.bytes_sent));
  resources.add("shuffle.bytes_sent_max", transport.max(shuffled.bytes_sent));
  resources.add("shuffle.bytes_sent_min", transport.min(shuffled.bytes_sent));
  resources.add("shuffle.rounds", transport.max(shuffled.rounds));  // every rank joins every round
  timer.stop();
  write_run_report(file, transport, common.info, merged, resources, timer, scan.shard.errors);
  file.commit();
  scan.checkpoints->remove_all();
}

}  // namespace crd::pipeline
