// Rows that exist only in result files (the tables of /run and /detection/labels, provenance):
// declared by their field lists like the pipeline's own rows, so their columns come from one place.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>

#include "crd/hash/digest.hpp"
#include "crd/shuffle/fields.hpp"

namespace crd::output {

using shuffle::field;

// /run/counters and /run/resources.
struct NamedValueRow {
  std::string name;
  std::uint64_t value = 0;
  static constexpr auto fields() {
    return std::tuple(field("name", &NamedValueRow::name), field("value", &NamedValueRow::value));
  }
};

// /run/timings.
struct TimingRow {
  std::string phase;
  double seconds = 0;
  static constexpr auto fields() {
    return std::tuple(field("phase", &TimingRow::phase), field("seconds", &TimingRow::seconds));
  }
};

// /detection/labels: a label of the set detection used, and where it occurred.
struct DetectedLabelRow {
  Digest hash;
  std::uint32_t length = 0;
  std::string sample;
  std::uint64_t pages = 0;
  std::uint64_t neighborhoods = 0;
  std::uint64_t occurrences = 0;
  static constexpr auto fields() {
    return std::tuple(field("hash", &DetectedLabelRow::hash), field("length", &DetectedLabelRow::length),
                      field("sample", &DetectedLabelRow::sample), field("pages", &DetectedLabelRow::pages),
                      field("neighborhoods", &DetectedLabelRow::neighborhoods),
                      field("occurrences", &DetectedLabelRow::occurrences));
  }
};

// /detection/provenance: one sample page of a label.
struct ProvenanceRow {
  std::uint32_t label = 0;
  std::string url;
  static constexpr auto fields() {
    return std::tuple(field("label", &ProvenanceRow::label), field("url", &ProvenanceRow::url));
  }
};

}  // namespace crd::output
