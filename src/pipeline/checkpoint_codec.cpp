// Serialization of phase results for checkpoints.
#include "crd/pipeline/checkpoint_codec.hpp"

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
  for (const auto& r : t.rows) {
    out.pod(r.hash);
    out.pod(r.count);
    out.pod(r.length);
    out.str(r.sample);
    out.str(r.sample_url);
  }
  for (std::uint64_t v : {t.threshold, t.total, t.distinct, t.labeled, t.stop_removed, d.first_label_id}) out.pod(v);
  out.vec(d.histogram);
  out.vec(d.labeled_local);
}

discover::TallyDiscovery load_discovery(BinaryFileReader& in) {
  discover::TallyDiscovery d;
  auto& t = d.table;
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) {
    discover::LabelRow r;
    r.hash = in.pod<Digest>();
    r.count = in.pod<std::uint64_t>();
    r.length = in.pod<std::uint64_t>();
    r.sample = in.str();
    r.sample_url = in.str();
    t.rows.push_back(std::move(r));
  }
  for (std::uint64_t* v : {&t.threshold, &t.total, &t.distinct, &t.labeled, &t.stop_removed, &d.first_label_id})
    *v = in.pod<std::uint64_t>();
  d.histogram = in.vec<discover::HistogramRow>();
  d.labeled_local = in.vec<discover::TaggedId>();
  return d;
}

void save_detection(BinaryFileWriter& out, const detect::DetectionResult& d) {
  out.pod(static_cast<std::uint64_t>(d.pages.size()));
  for (const auto& p : d.pages) {
    out.str(p.url);
    out.pod(p.chunks);
    out.pod(p.labeled);
    out.pod(p.containment);
    out.pod(p.flagged);
    out.vec(p.positions);
    out.vec(p.label_ids);
  }
  out.pod(static_cast<std::uint64_t>(d.neighborhoods.size()));
  for (const auto& n : d.neighborhoods) {
    out.str(n.prefix);
    out.pod(n.depth);
    out.pod(n.pages);
    out.pod(n.chunks);
    out.pod(n.labeled);
    out.pod(n.badness);
    out.pod(n.flagged);
  }
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
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) {
    detect::PageRow p;
    p.url = in.str();
    p.chunks = in.pod<std::uint32_t>();
    p.labeled = in.pod<std::uint32_t>();
    p.containment = in.pod<double>();
    p.flagged = in.pod<std::uint8_t>();
    p.positions = in.vec<std::uint32_t>();
    p.label_ids = in.vec<std::uint32_t>();
    d.pages.push_back(std::move(p));
  }
  for (auto n = in.pod<std::uint64_t>(); n > 0; --n) {
    detect::NeighborhoodRow r;
    r.prefix = in.str();
    r.depth = in.pod<std::uint32_t>();
    r.pages = in.pod<std::uint64_t>();
    r.chunks = in.pod<std::uint64_t>();
    r.labeled = in.pod<std::uint64_t>();
    r.badness = in.pod<double>();
    r.flagged = in.pod<std::uint8_t>();
    d.neighborhoods.push_back(std::move(r));
  }
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
