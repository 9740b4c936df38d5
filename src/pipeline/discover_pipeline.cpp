// The discover pipeline and the writer of its tables.
#include "crd/pipeline/discover_pipeline.hpp"

#include <optional>

#include "crd/pipeline/checkpoint_codec.hpp"
#include "crd/pipeline/scan_phase.hpp"

namespace crd::pipeline {

void write_labeled_table(output::ResultFile& file, const std::string& table_group,
                         const std::string& histogram_group, discover::TallyDiscovery& result,
                         bool with_samples, std::uint64_t min_length) {
  auto& t = result.table;
  std::vector<std::uint8_t> hashes;
  std::vector<std::uint64_t> counts;
  std::vector<std::uint64_t> lengths64;
  std::vector<std::uint32_t> lengths32;
  std::vector<std::string> samples;
  std::vector<std::string> urls;
  for (auto& row : t.rows) {  // the rows are done with: their strings move
    hashes.insert(hashes.end(), row.hash.bytes.begin(), row.hash.bytes.end());
    counts.push_back(row.count);
    if (with_samples) {
      lengths32.push_back(static_cast<std::uint32_t>(row.length));
      samples.push_back(std::move(row.sample));
    } else {
      lengths64.push_back(row.length);
    }
    urls.push_back(std::move(row.sample_url));
  }
  file.create_group(table_group);
  file.write_matrix(table_group + "/hash", hashes, 20);
  file.write_column(table_group + "/count", std::span<const std::uint64_t>(counts));
  if (with_samples) {
    file.write_column(table_group + "/length", std::span<const std::uint32_t>(lengths32));
    file.write_strings(table_group + "/sample", samples);
  } else {
    file.write_column(table_group + "/length", std::span<const std::uint64_t>(lengths64));
  }
  file.write_strings(table_group + "/sample_url", urls);
  file.set_attribute(table_group, "threshold", t.threshold);
  file.set_attribute(table_group, "total", t.total);
  file.set_attribute(table_group, "distinct", t.distinct);
  file.set_attribute(table_group, "labeled", t.labeled);
  file.set_attribute(table_group, "stop_removed", t.stop_removed);
  if (with_samples) file.set_attribute(table_group, "min_chunk_length", min_length);

  std::vector<std::uint64_t> occ;
  std::vector<std::uint64_t> distinct;
  for (const auto& h : result.histogram) {
    occ.push_back(h.occurrences);
    distinct.push_back(h.distinct);
  }
  file.create_group(histogram_group);
  file.write_column(histogram_group + "/occurrences", std::span<const std::uint64_t>(occ));
  file.write_column(histogram_group + "/distinct", std::span<const std::uint64_t>(distinct));
}

void run_discover(const CommonOptions& common, const DiscoverOptions& options,
                  comm::MpiTransport& transport) {
  PhaseTimer timer;
  with_result_file([&](std::optional<output::ResultFile>& file) {
    ScanPhase scan = run_scan_phase(common, options, false, transport, timer, file);

    discover::ShuffleTotals shuffled;
    timer.start("discover");
    auto [chunks, files] = discover_phase(transport, scan, options, common.round_bytes, shuffled);

    timer.start("write");
    write_discovery(*file, transport, chunks, files, options, common.round_bytes);
    finish_run(*file, transport, common, scan, shuffled, timer);
  });
}

DiscoveryPhase discover_phase(comm::Transport& transport, ScanPhase& scan, const DiscoverOptions& options,
                              std::size_t round_bytes, discover::ShuffleTotals& shuffled) {
  DiscoveryPhase d;
  if (scan.checkpoints->load_agreed("discover", [&](BinaryFileReader& in) {
        d.chunks = load_discovery(in);
        d.files = load_discovery(in);
      })) {
    return d;
  }
  const discover::LabelRules chunk_rules{options.chunk_threshold, options.min_chunk_length, scan.stop_list()};
  d.chunks = discover::discover_labels(transport, scan.shard.chunks, scan.shard.keys, chunk_rules, round_bytes, shuffled);
  const discover::LabelRules file_rules{options.file_threshold, 0, scan.stop_list()};
  d.files = discover::discover_labels(transport, scan.shard.files, scan.shard.keys, file_rules, round_bytes, shuffled);
  scan.checkpoints->save("discover", [&](BinaryFileWriter& out) {
    save_discovery(out, d.chunks);
    save_discovery(out, d.files);
  });
  scan.checkpoints->agree_saved();
  fault_point("after_discover", transport.rank());
  return d;
}

void write_discovery(output::ResultFile& file, comm::Transport& transport, discover::TallyDiscovery& chunks,
                     discover::TallyDiscovery& files, const DiscoverOptions& options, std::size_t round_bytes) {
  chunks.table.rows = discover::sort_by_count(transport, std::move(chunks.table.rows), round_bytes);
  files.table.rows = discover::sort_by_count(transport, std::move(files.table.rows), round_bytes);
  write_labeled_table(file, "/discovery/chunks", "/discovery/chunk_histogram", chunks, true, options.min_chunk_length);
  write_labeled_table(file, "/discovery/files", "/discovery/file_histogram", files, false, 0);
}

}  // namespace crd::pipeline
