// Serialization of phase results for checkpoints.
#include "checkpoint_codec.hpp"

#include "crd/shuffle/fields.hpp"

namespace crd::pipeline {

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
  shuffle::write_value(out, s.errors);
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
  shuffle::read_value(in, s.errors);
  return s;
}

void save_discovery(BinaryFileWriter& out, const discover::TallyDiscovery& d) {
  const auto& t = d.table;
  shuffle::write_value(out, t.rows);
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
  shuffle::read_value(in, t.rows);
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
  shuffle::write_value(out, d.pages);
  shuffle::write_value(out, d.neighborhoods);
  shuffle::write_value(out, d.label_use);
  out.pod(d.stats);
}

detect::DetectionResult load_detection(BinaryFileReader& in) {
  detect::DetectionResult d;
  shuffle::read_value(in, d.pages);
  shuffle::read_value(in, d.neighborhoods);
  shuffle::read_value(in, d.label_use);
  d.stats = in.pod<detect::DetectionStats>();
  return d;
}

}  // namespace crd::pipeline
