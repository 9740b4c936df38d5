// Field-by-field encoding of a LabelRow, shared by the sample sort and checkpoints (see
// detect/row_codec.hpp for the writer/reader contract).
#pragma once

#include <string>

#include "crd/discover/discovery.hpp"

namespace crd::discover {

template <class W>
void write_row(W& w, const LabelRow& r) {
  w.pod(r.hash);
  w.pod(r.count);
  w.pod(r.length);
  w.str(r.sample);
  w.str(r.sample_url);
}

template <class R>
LabelRow read_label_row(R& r) {
  LabelRow row;
  row.hash = r.template pod<Digest>();
  row.count = r.template pod<std::uint64_t>();
  row.length = r.template pod<std::uint64_t>();
  row.sample = std::string(r.str());
  row.sample_url = std::string(r.str());
  return row;
}

}  // namespace crd::discover
