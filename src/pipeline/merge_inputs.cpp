// Checking and reading crd merge's inputs (merge_inputs.hpp).
#include "merge_inputs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "agreed_errors.hpp"
#include "count_tables.hpp"
#include "crd/base/error.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/schema.hpp"
#include "labels/label_file_shape.hpp"

namespace crd::pipeline {
namespace {

namespace schema = output::schema;
using discover::CountRow;
using discover::LabelRow;

// Opens one input and refuses it, in one line naming it, unless it can be merged with `first`
// (the first input's chunking identity; "" while checking the first).
std::unique_ptr<output::ResultReader> open_input(const std::string& path, const std::string& first_path,
                                                 const std::string& first, std::uint64_t read_cap) {
  auto reader = std::make_unique<output::ResultReader>(path, read_cap);
  const auto& r = *reader;
  for (const auto* table : {&schema::kChunkCounts, &schema::kFileCounts}) {
    const std::string hash = table->column(&CountRow::hash);
    if (!r.has(hash) || !schema::has_attribute(r, schema::attr::kChunking))
      throw UsageError(path + " has no count tables (" + table->group +
                       "): only results of crd discover --keep-counts (or crd merge) can be merged");
    const std::uint64_t n = r.rows(hash);
    const auto shape = r.shape(hash);
    if (shape.dims.size() != 2 || shape.dims[1] != sizeof(Digest::bytes) ||
        r.rows(table->column(&CountRow::count)) != n || r.rows(table->column(&CountRow::length)) != n)
      throw UsageError(path + ": " + table->group + " is malformed (columns of other lengths or widths)");
  }
  check_label_file_shape(r, schema::kDiscoveryChunks.group);
  check_label_file_shape(r, schema::kDiscoveryFiles.group);
  const std::string chunking = schema::attribute_string(r, schema::attr::kChunking);
  if (!first.empty() && chunking != first)
    throw UsageError(path + " was chunked with '" + chunking + "' but " + first_path + " with '" + first +
                     "': only results chunked alike can be merged");
  return reader;
}

// Refuses an input named twice, under any spelling (a hard link, a symlink, ./x/../): merged
// twice, its counts would double. Inputs that cannot be stat'ed are left to the reader's error.
void refuse_same_file_twice(const std::vector<std::string>& paths) {
  std::map<std::pair<dev_t, ino_t>, const std::string*> seen;
  for (const auto& path : paths) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) continue;
    const auto [it, inserted] = seen.try_emplace({st.st_dev, st.st_ino}, &path);
    if (!inserted)
      throw UsageError(path + " is the same file as " + *it->second +
                       ": merging a result twice would double its counts");
  }
}

// This rank's share [first, first + count) of a table of n rows.
struct Share {
  std::uint64_t first;
  std::uint64_t count;
};
Share share_of(std::uint64_t n, int rank, int nranks) {
  const auto r = static_cast<std::uint64_t>(rank), p = static_cast<std::uint64_t>(nranks);
  const std::uint64_t first = n / p * r + std::min(r, n % p);
  return {first, n / p + (r < n % p ? 1 : 0)};
}

// Reads this rank's share of a table in blocks, handing each row to `take`.
template <class Read, class Take>
void read_share(std::uint64_t n, int rank, int nranks, Read&& read, Take&& take) {
  constexpr std::uint64_t kBlock = 1u << 16;
  const Share s = share_of(n, rank, nranks);
  for (std::uint64_t at = s.first; at < s.first + s.count; at += kBlock)
    for (auto& row : read(at, std::min(kBlock, s.first + s.count - at))) take(row);
}

void read_input(const output::ResultReader& r, int rank, int nranks, MergeInputs& in) {
  for (const bool chunks : {true, false}) {
    const auto& counts = chunks ? schema::kChunkCounts : schema::kFileCounts;
    auto& count_rows = chunks ? in.chunk_counts : in.file_counts;
    read_share(
        r.rows(counts.column(&CountRow::hash)), rank, nranks,
        [&](std::uint64_t first, std::uint64_t n) { return read_count_rows(r, chunks, first, n); },
        [&](CountRow& row) { count_rows.push_back(row); });
    const auto& labeled = chunks ? schema::kDiscoveryChunks : schema::kDiscoveryFiles;
    auto& notes = chunks ? in.chunk_notes : in.file_notes;
    read_share(
        r.rows(labeled.column(&LabelRow::hash)), rank, nranks,
        [&](std::uint64_t first, std::uint64_t n) { return output::read_table(r, labeled, first, n); },
        [&](LabelRow& row) {
          notes.push_back({row.hash, std::move(row.sample_url), std::move(row.sample)});
        });
  }
  if (r.has(schema::kErrors.column(&io::ReadError::file)))
    read_share(
        r.rows(schema::kErrors.column(&io::ReadError::file)), rank, nranks,
        [&](std::uint64_t first, std::uint64_t n) { return output::read_table(r, schema::kErrors, first, n); },
        [&](io::ReadError& e) { in.errors.push_back(std::move(e)); });
  output::MergeInputRow source;
  source.path = r.path();
  source.command = schema::attribute_string(r, schema::attr::kCommand);
  source.created = schema::attribute_string(r, schema::attr::kCreated);
  source.distinct_chunks = r.rows(schema::kChunkCounts.column(&CountRow::hash));
  source.distinct_files = r.rows(schema::kFileCounts.column(&CountRow::hash));
  for (const auto& c : output::read_table(r, schema::kCounters)) {
    in.counters.add(c.name, c.value);
    if (c.name == "documents") source.documents = c.value;
    if (c.name == "records") source.records = c.value;
    if (c.name == "chunks") source.chunks = c.value;
  }
  in.sources.push_back(std::move(source));
}

}  // namespace

MergeInputs read_merge_inputs(comm::Transport& transport, const std::vector<std::string>& paths,
                              const MemoryBudget& budget) {
  MergeInputs in;
  agree_on_errors(transport, [&] {
    refuse_same_file_twice(paths);
    for (const auto& path : paths) {
      const auto reader = open_input(path, paths.front(), in.chunking, budget.read_cap(false));
      if (in.chunking.empty()) in.chunking = schema::attribute_string(*reader, schema::attr::kChunking);
      read_input(*reader, transport.rank(), transport.size(), in);
    }
  });
  return in;
}

}  // namespace crd::pipeline
