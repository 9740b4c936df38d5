// Rows that exist only in result files (the tables of /run and /detection/labels, provenance):
// declared by their field lists like the pipeline's own rows, so their columns come from one place.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "crd/hash/digest.hpp"
#include "crd/base/fields.hpp"

namespace crd::output {


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

// /labels_documents (crd label): one expert document, its chunks after stop removal, and the label
// (row of /labels) at each labeled position, in page order — what detect --pairs compares with.
struct LabeledDocumentRow {
  std::string url;
  std::uint32_t chunks = 0;
  std::vector<std::uint32_t> label_ids;
  static constexpr auto fields() {
    return std::tuple(field("url", &LabeledDocumentRow::url), field("chunks", &LabeledDocumentRow::chunks),
                      field("label_ids", &LabeledDocumentRow::label_ids));
  }
};

// /detection/pairs (detect --pairs K): a flagged page and one of the K labeled documents it overlaps
// most, with their similarity pair (Campbell, Chen & Smith 2000, §6, docs/sentences.md).
struct SimilarityPairRow {
  std::string page;
  std::string document;
  std::uint32_t matching = 0;  // distinct labels the two share
  double first = 0;            // the page's chunks whose label the document holds / the page's chunks
  double second = 0;           // the document's chunks whose label the page holds / the document's chunks
  static constexpr auto fields() {
    return std::tuple(field("page", &SimilarityPairRow::page), field("document", &SimilarityPairRow::document),
                      field("matching", &SimilarityPairRow::matching), field("first", &SimilarityPairRow::first),
                      field("second", &SimilarityPairRow::second));
  }
};

// /compare_hashing/confusion: page detection with one method at one threshold (crd compare-hashing).
struct ConfusionRow {
  std::string method;  // sha1, nilsimsa, tlsh, ssdeep
  std::string rule;    // how `threshold` reads: "score >= t", "distance <= t", "identical digest"
  double threshold = 0;
  std::uint8_t primary = 0;  // the method's headline threshold
  double page_threshold = 0;  // containment a page must exceed (auto resolved per row)
  std::uint64_t tp = 0;
  std::uint64_t fp = 0;
  std::uint64_t fn = 0;
  std::uint64_t tn = 0;
  double fpr = 0;              // fp / (fp + tn)
  double extrapolated_fp = 0;  // fpr × the extrapolation's page count
  static constexpr auto fields() {
    return std::tuple(field("method", &ConfusionRow::method), field("rule", &ConfusionRow::rule),
                      field("threshold", &ConfusionRow::threshold), field("primary", &ConfusionRow::primary),
                      field("page_threshold", &ConfusionRow::page_threshold), field("tp", &ConfusionRow::tp),
                      field("fp", &ConfusionRow::fp), field("fn", &ConfusionRow::fn), field("tn", &ConfusionRow::tn),
                      field("fpr", &ConfusionRow::fpr), field("extrapolated_fp", &ConfusionRow::extrapolated_fp));
  }
};

// /merge/inputs: one row per input of crd merge, in the order given: what was summed.
struct MergeInputRow {
  std::string path;             // as given on the command line
  std::string command;          // the input's own command (discover, run, merge)
  std::string created;          // the input's creation time
  std::uint64_t documents = 0;  // its counters
  std::uint64_t records = 0;
  std::uint64_t chunks = 0;            // chunk occurrences counted
  std::uint64_t distinct_chunks = 0;   // rows of its chunk count table
  std::uint64_t distinct_files = 0;    // rows of its file count table
  static constexpr auto fields() {
    return std::tuple(field("path", &MergeInputRow::path), field("command", &MergeInputRow::command),
                      field("created", &MergeInputRow::created), field("documents", &MergeInputRow::documents),
                      field("records", &MergeInputRow::records), field("chunks", &MergeInputRow::chunks),
                      field("distinct_chunks", &MergeInputRow::distinct_chunks),
                      field("distinct_files", &MergeInputRow::distinct_files));
  }
};

}  // namespace crd::output
