// Serialization of phase results for checkpoints.
#include "crd/pipeline/checkpoint_codec.hpp"

#include "crd/detect/row_codec.hpp"
#include "crd/discover/label_row_codec.hpp"

namespace crd::pipeline {

void save_shard(BinaryFileWriter& out, const discover::ScannedShard& s) {
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
  out.pod(static_cast<std::uint64_t>(s.errors.size()));
  for (const auto& e : s.errors) {
    out.str(e.file);
    out.pod(e.offset);
    out.str(e.reason);
  }
}

discover::ScannedShard load_shard(BinaryFileReader& in) {
  discover::ScannedShard s;
  s.keys = in.strings();
  s.chunks = discover::LocalTally::load(in);
  s.files = discover::LocalTally::load(in);
  s.page_offsets = in.vec<std::uint64_t>();
  s.page_chunk_ids = in.vec<std::uint32_t>();
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) {
    const std::string name = in.str();
    s.counters.add(name, in.pod<std::uint64_t>());
  }
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) {
    io::ReadError e;
    e.file = in.str();
    e.offset = in.pod<std::uint64_t>();
    e.reason = in.str();
    s.errors.push_back(std::move(e));
  }
  return s;
}

void save_discovery(BinaryFileWriter& out, const discover::TallyDiscovery& d) {
  const auto& t = d.table;
  out.pod(static_cast<std::uint64_t>(t.rows.size()));
  for (const auto& r : t.rows) discover::write_row(out, r);
  for (std::uint64_t v : {t.threshold, t.total, t.distinct, t.labeled, t.stop_removed, d.first_label_id}) out.pod(v);
  out.vec(d.histogram);
  out.vec(d.labeled_local);
}

discover::TallyDiscovery load_discovery(BinaryFileReader& in) {
  discover::TallyDiscovery d;
  auto& t = d.table;
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) t.rows.push_back(discover::read_label_row(in));
  for (std::uint64_t* v : {&t.threshold, &t.total, &t.distinct, &t.labeled, &t.stop_removed, &d.first_label_id})
    *v = in.pod<std::uint64_t>();
  d.histogram = in.vec<discover::HistogramRow>();
  d.labeled_local = in.vec<discover::TaggedId>();
  return d;
}

void save_detection(BinaryFileWriter& out, const detect::DetectionResult& d) {
  out.pod(static_cast<std::uint64_t>(d.pages.size()));
  for (const auto& p : d.pages) detect::write_row(out, p);
  out.pod(static_cast<std::uint64_t>(d.neighborhoods.size()));
  for (const auto& n : d.neighborhoods) detect::write_row(out, n);
  out.pod(static_cast<std::uint64_t>(d.label_use.size()));
  for (const auto& u : d.label_use) {
    out.pod(u.pages);
    out.pod(u.neighborhoods);
    out.pod(u.occurrences);
    out.strings(u.sample_urls);
  }
  out.pod(d.stats);
}

detect::DetectionResult load_detection(BinaryFileReader& in) {
  detect::DetectionResult d;
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) d.pages.push_back(detect::read_page_row(in));
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) d.neighborhoods.push_back(detect::read_neighborhood_row(in));
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) {
    detect::LabelUse u;
    u.pages = in.pod<std::uint64_t>();
    u.neighborhoods = in.pod<std::uint64_t>();
    u.occurrences = in.pod<std::uint64_t>();
    u.sample_urls = in.strings();
    d.label_use.push_back(std::move(u));
  }
  d.stats = in.pod<detect::DetectionStats>();
  return d;
}

}  // namespace crd::pipeline
