// Serialization of phase results for checkpoints.
#include "checkpoint_codec.hpp"

#include <stdexcept>
#include <string>

#include "crd/base/fields.hpp"

namespace crd::pipeline {
namespace {

void corrupt_unless(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("checkpoint corrupt (") + what + ")");
}

// The indices a shard holds point into its own tables: checked once here, so that no later phase
// indexes out of bounds on a crafted or mismatched file.
void check_shard(const scan::ScannedShard& s) {
  for (const discover::LocalTally* tally : {&s.chunks, &s.files})
    for (std::uint32_t id = 0; id < tally->distinct(); ++id)
      corrupt_unless(tally->first_page(id) < s.keys.size(), "a hash's first page is not a page of the shard");
  const auto& offsets = s.page_offsets;
  corrupt_unless(!offsets.empty() && offsets.front() == 0 && offsets.back() == s.page_chunk_ids.size(),
                 "page offsets do not cover the page chunks");
  corrupt_unless(offsets.size() == 1 || offsets.size() == s.keys.size() + 1, "page offsets for another page count");
  for (std::size_t p = 1; p < offsets.size(); ++p)
    corrupt_unless(offsets[p - 1] <= offsets[p], "page offsets out of order");
  for (const std::uint32_t id : s.page_chunk_ids)
    corrupt_unless(id < s.chunks.distinct(), "a page chunk outside the tally");
}

}  // namespace

void check_local_ids(const discover::TallyDiscovery& d, std::uint64_t distinct) {
  const std::uint64_t labels = d.table.labeled;  // label ids are 0 … labeled - 1, over all ranks
  corrupt_unless(d.first_label_id <= labels && d.table.rows.size() <= labels - d.first_label_id,
                 "owned labels past the label count");
  for (const auto& t : d.labeled_local) {
    corrupt_unless(t.local_id < distinct, "a label of a hash this rank does not hold");
    corrupt_unless(t.tag < labels, "a label id past the label count");
  }
}

void check_label_use(const detect::DetectionResult& d, std::uint64_t labels) {
  corrupt_unless(d.label_use.size() == labels, "label provenance for another label count");
}

void save_shard(BinaryFileWriter& out, const scan::ScannedShard& s) {
  out.strings(s.keys);
  s.chunks.save(out);
  s.files.save(out);
  out.vec(s.page_offsets);
  out.vec(s.page_chunk_ids);
  out.pod(static_cast<std::uint64_t>(s.counters.values().size()));
  for (const auto& [name, value] : s.counters.values()) {
    out.str(name);
    out.pod(value);
  }
  write_value(out, s.errors);
}

scan::ScannedShard load_shard(BinaryFileReader& in) {
  scan::ScannedShard s;
  s.keys = in.strings();
  s.chunks = discover::LocalTally::load(in);
  s.files = discover::LocalTally::load(in);
  s.page_offsets = in.vec<std::uint64_t>();
  s.page_chunk_ids = in.vec<std::uint32_t>();
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) {
    const std::string name = in.str();
    s.counters.add(name, in.pod<std::uint64_t>());
  }
  read_value(in, s.errors);
  check_shard(s);
  return s;
}

void save_discovery(BinaryFileWriter& out, const discover::TallyDiscovery& d) {
  const auto& t = d.table;
  write_value(out, t.rows);
  for (std::uint64_t v : {t.threshold, t.total, t.distinct, t.labeled, t.stop_removed, t.top, t.top_removed,
                          d.first_label_id})
    out.pod(v);
  out.vec(d.histogram);
  out.vec(d.labeled_local);
  out.vec(d.counts);
}

discover::TallyDiscovery load_discovery(BinaryFileReader& in) {
  discover::TallyDiscovery d;
  auto& t = d.table;
  read_value(in, t.rows);
  for (std::uint64_t* v : {&t.threshold, &t.total, &t.distinct, &t.labeled, &t.stop_removed, &t.top, &t.top_removed,
                           &d.first_label_id})
    *v = in.pod<std::uint64_t>();
  d.histogram = in.vec<discover::HistogramRow>();
  d.labeled_local = in.vec<discover::TaggedId>();
  d.counts = in.vec<discover::CountRow>();
  return d;
}

// Rows are encoded from their field lists, exactly as the hand-written codec did (u64 counts,
// members in order), so checkpoints of earlier versions still read.
void save_detection(BinaryFileWriter& out, const detect::DetectionResult& d) {
  write_value(out, d.pages);
  write_value(out, d.neighborhoods);
  write_value(out, d.label_use);
  out.pod(d.stats);
}

detect::DetectionResult load_detection(BinaryFileReader& in) {
  detect::DetectionResult d;
  read_value(in, d.pages);
  read_value(in, d.neighborhoods);
  read_value(in, d.label_use);
  d.stats = in.pod<detect::DetectionStats>();
  return d;
}

}  // namespace crd::pipeline
