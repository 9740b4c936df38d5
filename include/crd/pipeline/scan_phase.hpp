// The start and the end every corpus-reading pipeline shares: expand the inputs, open the result
// file (so an unwritable output fails before the long phases), scan this rank's shard under the
// memory budget; and at the end merge counters, write /run and commit.
#pragma once

#include <optional>

#include "crd/comm/mpi_transport.hpp"
#include "crd/discover/corpus_scan.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/discover/owner_tally.hpp"
#include "crd/output/result_file.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/pipeline/run_report.hpp"

namespace crd::pipeline {

struct ScanPhase {
  std::optional<discover::StopList> stop;
  discover::ScannedShard shard;
  Counters expand_counters;  // rank 0's count of input expansion (the same on every rank)

  const discover::StopList* stop_list() const { return stop ? &*stop : nullptr; }
};

// Collective.
ScanPhase run_scan_phase(const CommonOptions& common, const DiscoverOptions& options, bool keep_pages,
                         comm::MpiTransport& transport, PhaseTimer& timer, std::optional<output::ResultFile>& file);

// Collective: counters (with shuffle volume and peak memory), /run, root attributes, commit.
void finish_run(output::ResultFile& file, comm::MpiTransport& transport, const CommonOptions& common, ScanPhase& scan,
                const discover::ShuffleTotals& shuffled, PhaseTimer& timer);

}  // namespace crd::pipeline
