// Loading and joining the labeled set.
#include "crd/pipeline/label_set.hpp"

#include <algorithm>
#include <memory>

#include "crd/core/error.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/pipeline/label_file_shape.hpp"

namespace crd::pipeline {

JoinMode parse_join_mode(const std::string& text) {
  if (text == "auto") return JoinMode::Auto;
  if (text == "replicated") return JoinMode::Replicated;
  if (text == "partitioned") return JoinMode::Partitioned;
  throw UsageError("option --join: expected auto, replicated or partitioned, got '" + text + "'");
}

std::string labels_group(const output::ResultReader& r) {
  for (const char* g : {"/labels", "/discovery/chunks", "/detection/labels"}) {
    if (r.has(std::string(g) + "/hash")) {
      check_label_file_shape(r, g);
      return g;
    }
  }
  throw UsageError(r.path() + " holds no labeled set (/labels, /discovery/chunks or /detection/labels)");
}

namespace {

struct Candidate {
  Digest hash;
  std::uint64_t length;
  std::string sample;
};

struct ReadLabels {
  std::vector<Candidate> mine;    // the rows this rank owns, in file order
  std::vector<Digest> everything;  // every hash, if replicated
  bool replicate = false;
};

ReadLabels read_label_files(const std::vector<std::string>& paths, JoinMode mode, std::uint64_t replicate_max,
                            int nranks, int me) {
  constexpr std::uint64_t kBlock = 1u << 16;
  ReadLabels out;
  std::vector<Candidate>& mine = out.mine;
  std::vector<Digest>& everything = out.everything;
  std::uint64_t rows_total = 0;
  std::vector<std::unique_ptr<output::ResultReader>> readers;
  std::vector<std::string> groups;
  for (const auto& path : paths) {
    readers.push_back(std::make_unique<output::ResultReader>(path));
    groups.push_back(labels_group(*readers.back()));
    rows_total += readers.back()->rows(groups.back() + "/hash");
  }
  const bool replicate =
      mode == JoinMode::Replicated || (mode == JoinMode::Auto && rows_total <= replicate_max);
  out.replicate = replicate;

  for (std::size_t source = 0; source < readers.size(); ++source) {
    const output::ResultReader& reader = *readers[source];
    const std::string& group = groups[source];
    const std::uint64_t n = reader.rows(group + "/hash");
    const bool has_samples = reader.has(group + "/sample");
    for (std::uint64_t first = 0; first < n; first += kBlock) {
      const auto hashes = reader.read_matrix(group + "/hash", first, kBlock);
      const std::size_t rows = hashes.size() / 20;
      std::vector<std::size_t> owned_rows;
      for (std::size_t i = 0; i < rows; ++i) {
        Digest d;
        std::copy_n(hashes.begin() + static_cast<std::ptrdiff_t>(i * 20), 20, d.bytes.begin());
        if (replicate) everything.push_back(d);
        if (owner_of(d, nranks) == me) {
          owned_rows.push_back(i);
          mine.push_back({d, 0, {}});
        }
      }
      if (owned_rows.empty()) continue;
      const auto lengths = reader.read_u64(group + "/length", first, rows);
      const auto samples = has_samples ? reader.read_strings(group + "/sample", first, rows) : std::vector<std::string>{};
      // check_label_file_shape made the columns equally long; a file changed since is an error.
      if (lengths.size() != rows || (has_samples && samples.size() != rows))
        throw UsageError("labels file " + reader.path() + ": " + group + " changed while it was read");
      const std::size_t base = mine.size() - owned_rows.size();
      for (std::size_t k = 0; k < owned_rows.size(); ++k) {
        mine[base + k].length = lengths[owned_rows[k]];
        if (has_samples) mine[base + k].sample = samples[owned_rows[k]];
      }
    }
  }
  return out;
}

}  // namespace

LabelSet load_label_set(comm::Transport& transport, const std::vector<std::string>& paths, JoinMode mode,
                        std::uint64_t replicate_max) {
  // Every rank opens the files itself (read-only, serial HDF5). Errors are then normally the same
  // everywhere, but a file one rank cannot read (node-local paths, a bad sector in a column only
  // some ranks read) must not leave the others in the next collective: agree first.
  ReadLabels read;
  std::string error;
  bool fatal = false;
  try {
    read = read_label_files(paths, mode, replicate_max, transport.size(), transport.rank());
  } catch (const UsageError& e) {
    error = e.what();
  } catch (const FatalError& e) {
    error = e.what();
    fatal = true;
  }
  const std::string agreed = transport.first_error(error);
  if (!agreed.empty()) {
    const std::string text = error.empty() ? agreed : error;
    if (transport.all_ok(!fatal)) throw UsageError(text);
    throw FatalError(text);
  }
  std::vector<Candidate>& mine = read.mine;
  std::vector<Digest>& everything = read.everything;
  const bool replicate = read.replicate;
  // Merge duplicates (the same hash in several files): keep the first one read.
  std::stable_sort(mine.begin(), mine.end(), [](const Candidate& a, const Candidate& b) { return a.hash < b.hash; });
  mine.erase(std::unique(mine.begin(), mine.end(), [](const Candidate& a, const Candidate& b) { return a.hash == b.hash; }),
             mine.end());

  LabelSet set;
  set.replicated = replicate;
  set.owned.first_id = transport.exscan_sum(mine.size());
  set.total = transport.sum(mine.size());
  for (auto& c : mine) {
    set.owned.hashes.push_back(c.hash);
    set.owned.lengths.push_back(c.length);
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
    const auto it = std::lower_bound(hashes.begin(), hashes.end(), owned.digests[i]);
    if (it != hashes.end() && *it == owned.digests[i])
      tags[i] = labels.owned.first_id + static_cast<std::uint64_t>(it - hashes.begin());
  }
  for (const auto& t : discover::notify_reporters(transport, owned, tags, chunks, round_bytes, totals))
    label_of[t.local_id] = t.tag;
  return label_of;
}

}  // namespace crd::pipeline
