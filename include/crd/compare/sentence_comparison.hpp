// crd compare's computation (Campbell, Chen & Smith 2000, §6): documents read into sentences, the
// pairs that share one, and against labeled sets, which labels each document holds and from which
// labeled documents (their sample URLs). One process: meant for a handful of documents or one WARC.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/compare/compare_documents.hpp"
#include "crd/discover/label_lookup.hpp"
#include "crd/output/result_reader.hpp"

namespace crd::compare {

// One labeled sentence of a document.
struct LabelHit {
  std::uint32_t position;
  const discover::LabelSource* label;
};

struct SentenceComparison {
  std::vector<SentenceDocument> documents;
  std::optional<PairIndex> pairs;  // those sharing a sentence, made on demand in (a, b) order
  std::uint64_t all_pairs = 0;     // n(n − 1)/2
  // Per document, its labeled sentences in order (empty when no labeled set was given).
  std::vector<std::vector<LabelHit>> hits;
  Counters counters;              // skipped.* and compare.capped_sentences
  std::uint64_t skipped() const;  // the sum of the skipped.* counters
};

// Reads the documents and indexes their sentences for the pairs (PairIndex with `max_bucket`),
// then compares them against `labels` when it holds any. Not movable once built: `pairs` refers
// to `documents`.
void compare_sentences(SentenceComparison& out, const std::vector<std::string>& inputs, const ReadSettings& read,
                       std::uint64_t max_bucket, const discover::LabelLookup* labels);

// The labeled document a label was sampled from (its sample_url), read only for labels that hit.
class LabelUrls {
 public:
  const std::string& url_of(const discover::LabelSource& label);

 private:
  std::map<std::string, output::ResultReader> readers_;
  std::map<const discover::LabelSource*, std::string> urls_;
};

// A document's labeled sentences from one labeled document.
struct LabeledDocument {
  std::string url;
  std::vector<bool> bits;  // the page's bit vector against this labeled document
  std::vector<std::uint32_t> positions;
};

// Per labeled document, most overlapping first (ties by URL, so the order is fixed).
std::vector<LabeledDocument> labeled_documents(const SentenceDocument& doc, const std::vector<LabelHit>& hits,
                                               LabelUrls& urls);

}  // namespace crd::compare
