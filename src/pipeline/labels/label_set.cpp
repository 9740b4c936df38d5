// Loading and joining the labeled set.
#include "label_set.hpp"

#include <algorithm>
#include <memory>

#include "agreed_errors.hpp"
#include "crd/base/error.hpp"
#include "crd/base/heap_bytes.hpp"
#include "crd/chunk/chunking_identity.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/schema.hpp"
#include "label_file_shape.hpp"
#include "memory_budget.hpp"

namespace crd::pipeline {

std::uint64_t held_bytes(const LabelSet& labels) {
  const detect::LabelSlice& s = labels.owned;
  std::uint64_t bytes = s.hashes.capacity() * sizeof(Digest) +
                        (s.lengths.capacity() + s.counts.capacity()) * sizeof(std::uint64_t) +
                        s.samples.capacity() * sizeof(std::string) + labels.all.memory_bytes();
  for (const std::string& sample : s.samples) bytes += heap_bytes(sample);
  return bytes;
}

std::string labels_group(const output::ResultReader& r) {
  for (const char* g : output::schema::kLabelSources) {
    if (r.has(output::Table<discover::LabelRow>{g}.column(&discover::LabelRow::hash))) {
      check_label_file_shape(r, g);
      return g;
    }
  }
  const auto* g = output::schema::kLabelSources;
  throw UsageError(r.path() + " holds no labeled set (" + g[0] + ", " + g[1] + " or " + g[2] + ")");
}

void check_labels_chunking(const output::ResultReader& r, const std::string& group, const std::string& chunking) {
  namespace attr = output::schema::attr;
  std::string stored;
  if (r.has_attribute(group, attr::kLabelChunking))
    stored = r.attribute_string(group, attr::kLabelChunking);
  else if (group == output::schema::kDiscoveryChunks.group && output::schema::has_attribute(r, attr::kChunking))
    stored = output::schema::attribute_string(r, attr::kChunking);
  if (stored.empty() || chunk::chunking_used(stored) == chunk::chunking_used(chunking)) return;
  throw UsageError("labels file " + r.path() + " was chunked with '" + stored + "' but this run chunks with '" +
                   chunking + "': its labels cannot match; give the chunking options it was made with");
}

namespace {

struct ReadLabels {
  std::vector<discover::LabelRow> mine;  // the rows this rank owns, in file order (no sample_url)
  std::vector<Digest> everything;        // every hash, if replicated
  bool replicate = false;
};

ReadLabels read_label_files(const std::vector<std::string>& paths, JoinMode mode, std::uint64_t replicate_max,
                            const MemoryBudget& budget, const std::string& chunking, int nranks, int me) {
  constexpr std::uint64_t kBlock = 1u << 16;
  ReadLabels out;
  std::vector<discover::LabelRow>& mine = out.mine;
  std::vector<Digest>& everything = out.everything;
  std::uint64_t rows_total = 0;
  std::vector<std::unique_ptr<output::ResultReader>> readers;
  std::vector<std::string> groups;
  for (const auto& path : paths) {
    readers.push_back(std::make_unique<output::ResultReader>(path));
    groups.push_back(labels_group(*readers.back()));
    check_labels_chunking(*readers.back(), groups.back(), chunking);
    rows_total += readers.back()->rows(
        output::Table<discover::LabelRow>{groups.back().c_str()}.column(&discover::LabelRow::hash));
  }
  const bool replicate = mode == JoinMode::Replicated || (mode == JoinMode::Auto && rows_total <= replicate_max);
  out.replicate = replicate;
  // Partitioned, a rank reads every row but keeps the 1/nranks it owns.
  for (auto& reader : readers) reader->set_memory_budget(budget.read_cap(!replicate));

  for (std::size_t source = 0; source < readers.size(); ++source) {
    const output::ResultReader& reader = *readers[source];
    const std::string& group = groups[source];
    // Not sample_url: fixed-width strings as wide as the longest URL, and detection needs none.
    // check_label_file_shape made the columns equally long and of the declared types.
    const output::Table<discover::LabelRow> table{group.c_str(), &discover::LabelRow::sample_url};
    const std::uint64_t n = reader.rows(table.column(&discover::LabelRow::hash));
    for (std::uint64_t first = 0; first < n; first += kBlock) {
      for (auto& row : output::read_table(reader, table, first, kBlock)) {
        if (replicate) everything.push_back(row.hash);
        if (owner_of(row.hash, nranks) == me)
          mine.push_back({row.hash, row.count, row.length, std::move(row.sample), {}});
      }
    }
  }
  return out;
}

}  // namespace

LabelSet load_label_set(comm::Transport& transport, const std::vector<std::string>& paths, JoinMode mode,
                        std::uint64_t replicate_max, const MemoryBudget& budget, const std::string& chunking) {
  // Every rank opens the files itself (read-only, serial HDF5). Errors are then normally the same
  // everywhere, but a file one rank cannot read (node-local paths, a bad sector in a column only
  // some ranks read) must not leave the others in the next collective: agree first.
  ReadLabels read;
  agree_on_errors(transport, [&] {
    read = read_label_files(paths, mode, replicate_max, budget, chunking, transport.size(), transport.rank());
  });
  std::vector<discover::LabelRow>& mine = read.mine;
  std::vector<Digest>& everything = read.everything;
  const bool replicate = read.replicate;
  // Merge duplicates (the same hash in several files): keep the first one read.
  std::stable_sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.hash < b.hash; });
  mine.erase(std::unique(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.hash == b.hash; }),
             mine.end());

  LabelSet set;
  set.replicated = replicate;
  set.owned.first_id = comm::exscan_sum(transport, mine.size());
  set.total = comm::sum(transport, mine.size());
  for (auto& c : mine) {
    set.owned.hashes.push_back(c.hash);
    set.owned.lengths.push_back(c.length);
    set.owned.counts.push_back(c.count);
    set.owned.samples.push_back(std::move(c.sample));
  }
  if (replicate) {
    std::sort(everything.begin(), everything.end());
    everything.erase(std::unique(everything.begin(), everything.end()), everything.end());
    for (std::size_t i = 0; i < everything.size(); ++i) {
      bool inserted = false;
      set.all.find_or_insert(everything[i], inserted) = i;
    }
  }
  return set;
}

std::vector<std::uint64_t> join_labels(comm::Transport& transport, const LabelSet& labels,
                                       const discover::LocalTally& chunks, std::size_t round_bytes,
                                       discover::ShuffleTotals& totals) {
  std::vector<std::uint64_t> label_of(chunks.distinct(), detect::kNoLabel);
  if (labels.replicated) {
    for (std::uint32_t id = 0; id < chunks.distinct(); ++id)
      if (const std::uint64_t* label = labels.all.find(chunks.digest(id))) label_of[id] = *label;
    return label_of;
  }
  const discover::OwnerTally owned = discover::exchange_counts(transport, chunks, round_bytes, totals);
  std::vector<std::uint64_t> tags(owned.distinct(), discover::kNotSelected);
  const auto& hashes = labels.owned.hashes;
  for (std::size_t i = 0; i < owned.distinct(); ++i) {
    const auto it = std::lower_bound(hashes.begin(), hashes.end(), owned.digest(i));
    if (it != hashes.end() && *it == owned.digest(i))
      tags[i] = labels.owned.first_id + static_cast<std::uint64_t>(it - hashes.begin());
  }
  for (const auto& t : discover::notify_reporters(transport, owned, tags, chunks, round_bytes, totals))
    label_of[t.local_id] = t.tag;
  return label_of;
}

}  // namespace crd::pipeline
