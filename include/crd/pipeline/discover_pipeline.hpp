// crd discover: read → hash → count by owner → label → write (collective over all ranks).
#pragma once

#include "crd/comm/transport.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/output/result_file.hpp"
#include "crd/output/table_io.hpp"
#include "crd/pipeline/options.hpp"
#include "crd/pipeline/scan_phase.hpp"

namespace crd::pipeline {

// Collective. Throws UsageError/FatalError on every rank alike.
void run_discover(const CommonOptions& common, const DiscoverOptions& options,
                  comm::Transport& transport);

struct DiscoveryPhase {
  discover::TallyDiscovery chunks;
  discover::TallyDiscovery files;
};

// Collective: blind discovery of chunks and files, or its checkpoint when resuming.
DiscoveryPhase discover_phase(comm::Transport& transport, ScanPhase& scan, const DiscoverOptions& options,
                              std::size_t round_bytes, discover::ShuffleTotals& shuffled);

// Sorts the tables by count and writes /discovery (collective; the rows are consumed), with the
// count tables if options.keep_counts (made with `chunking`: chunking_identity.hpp).
void write_discovery(output::ResultFile& file, comm::Transport& transport, discover::TallyDiscovery& chunks,
                     discover::TallyDiscovery& files, const DiscoverOptions& options,
                     const std::string& chunking, std::size_t round_bytes);

// Writes one labeled table and its histogram (schema::kDiscoveryChunks and kChunkHistogram for
// chunks); min_length and chunking (chunking_identity) are recorded where the table keeps samples.
// Collective; the rows' strings are moved out.
void write_labeled_table(output::ResultFile& file, const output::Table<discover::LabelRow>& table,
                         const output::Table<discover::HistogramRow>& histogram, discover::TallyDiscovery& result,
                         std::uint64_t min_length, const std::string& chunking);

}  // namespace crd::pipeline
