// Field-by-field encoding of detection rows, shared by the sample sort (shuffle::ByteWriter) and
// checkpoints (BinaryFileWriter): any writer with pod() and str(), any reader with pod<T>() and str().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/detect/detection.hpp"

namespace crd::detect {

template <class W>
void write_u32s(W& w, const std::vector<std::uint32_t>& v) {
  w.pod(static_cast<std::uint64_t>(v.size()));
  for (std::uint32_t x : v) w.pod(x);
}

template <class R>
std::vector<std::uint32_t> read_u32s(R& r) {
  std::vector<std::uint32_t> v(static_cast<std::size_t>(r.template pod<std::uint64_t>()));
  for (auto& x : v) x = r.template pod<std::uint32_t>();
  return v;
}

template <class W>
void write_row(W& w, const PageRow& p) {
  w.str(p.url);
  w.pod(p.chunks);
  w.pod(p.labeled);
  w.pod(p.containment);
  w.pod(p.flagged);
  write_u32s(w, p.positions);
  write_u32s(w, p.label_ids);
}

template <class R>
PageRow read_page_row(R& r) {
  PageRow p;
  p.url = std::string(r.str());
  p.chunks = r.template pod<std::uint32_t>();
  p.labeled = r.template pod<std::uint32_t>();
  p.containment = r.template pod<double>();
  p.flagged = r.template pod<std::uint8_t>();
  p.positions = read_u32s(r);
  p.label_ids = read_u32s(r);
  return p;
}

template <class W>
void write_row(W& w, const NeighborhoodRow& n) {
  w.str(n.prefix);
  w.pod(n.depth);
  w.pod(n.pages);
  w.pod(n.chunks);
  w.pod(n.labeled);
  w.pod(n.badness);
  w.pod(n.flagged);
}

template <class R>
NeighborhoodRow read_neighborhood_row(R& r) {
  NeighborhoodRow n;
  n.prefix = std::string(r.str());
  n.depth = r.template pod<std::uint32_t>();
  n.pages = r.template pod<std::uint64_t>();
  n.chunks = r.template pod<std::uint64_t>();
  n.labeled = r.template pod<std::uint64_t>();
  n.badness = r.template pod<double>();
  n.flagged = r.template pod<std::uint8_t>();
  return n;
}

}  // namespace crd::detect
