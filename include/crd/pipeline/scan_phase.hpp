// The start and the end every corpus-reading pipeline shares: expand the inputs, open the result
// file (so an unwritable output fails before the long phases), scan this rank's shard under the
// memory budget; and at the end merge counters, write /run and commit.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "crd/comm/transport.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/discover/owner_tally.hpp"
#include "crd/output/result_file.hpp"
#include "crd/pipeline/checkpoint.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/pipeline/run_report.hpp"
#include "crd/scan/corpus_scan.hpp"

namespace crd::pipeline {

class MemoryBudget;  // the job's --memory (src/pipeline/memory_budget.hpp)

struct ScanPhase {
  std::optional<Checkpoints> checkpoints;
  discover::StopItems stop;
  scan::ScannedShard shard;
  io::InputLog expand_log;  // what this rank left out while expanding the inputs
  // Out-of-core counting (hash_passes.hpp, docs/memory.md): passes over the hash space (1 = in
  // memory), and what a pass needs to read this rank's shard again.
  std::uint32_t passes = 1;
  std::vector<io::InputFile> files;
  std::vector<std::size_t> mine;
  scan::ScanOptions scan_options;
  std::uint64_t job_bytes = 0;           // all ranks' input bytes (progress)
  std::uint64_t bytes_read = 0;          // input bytes this rank read, over every scan and pass
  std::uint64_t shard_bytes = 0;         // this rank's input bytes (read once in memory)
  std::uint64_t tables_max = 0;          // the largest tables of an earlier scan or pass
  std::uint64_t held = 0;                // what the command keeps beside the tables (held_bytes), for every pass
  const MemoryBudget* budget = nullptr;  // the job's, as run_scan_phase was given it
};

// Runs a pipeline body that creates its result file in `file`. An exception only this rank knows of
// (anything but UsageError/FatalError, which every rank raises alike) ends the whole job here
// (transport.abort_all), before the file's collective close could wait for ranks that are busy
// elsewhere.
void with_result_file(comm::Transport& transport,
                      const std::function<void(std::optional<output::ResultFile>& file)>& body);

// The scan's own inputs, besides the corpus and CommonOptions.
struct ScanRequest {
  std::string stop_chunks;             // file of stop chunks ("" = none)
  std::uint64_t min_chunk_length = 0;  // shorter chunks are stop items too
  bool keep_counts = false;            // every hash's count is kept: the memory plan counts them
  bool keep_pages = false;             // keep each page's chunk ids (label, detect, compare-hashing)
  bool out_of_core = false;            // tables past --memory: plan passes > 1 instead of failing
  std::function<std::uint64_t()>
      held_bytes;  // bytes the command keeps beside the shard's tables (neardup's sketches, detect's labeled set)
};

// The stop items and kept counts that discover's options ask for (the other fields unset).
ScanRequest scan_request(const DiscoverOptions& options);

// Collective. Resumes the scan from this rank's checkpoint when there is one. With out_of_core,
// when the tables would pass --memory, returns with passes > 1 (and an empty shard) instead of
// failing. --memory counts held_bytes with the shard's tables, in every pass.
// `budget`: the job's, which the pipeline built once and passes on to every later step (the scan
// phase keeps a pointer to it).
ScanPhase run_scan_phase(const CommonOptions& common, const ScanRequest& request, const MemoryBudget& budget,
                         comm::Transport& transport, PhaseTimer& timer, std::optional<output::ResultFile>& file);

// Collective: /run/resources (peak memory, the tables' bytes, out-of-core passes and the input read
// again, shuffle volume), the same on every rank. passes/bytes_reread: this rank's (1 and 0 in memory).
Counters run_resources(comm::Transport& transport, const CommonOptions& common, std::uint64_t tables_bytes,
                       const discover::ShuffleTotals& shuffled, std::uint32_t passes = 1,
                       std::uint64_t bytes_reread = 0);

// Collective: counters, resources (shuffle volume, peak memory), /run, root attributes, commit;
// then the checkpoints are removed.
void finish_run(output::ResultFile& file, comm::Transport& transport, const CommonOptions& common, ScanPhase& scan,
                const discover::ShuffleTotals& shuffled, PhaseTimer& timer);

}  // namespace crd::pipeline
