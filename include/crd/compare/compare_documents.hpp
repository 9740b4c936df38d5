// crd compare's model: documents as sentence sequences, and the pairs of them that share one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/chunk/chunker.hpp"
#include "crd/detect/similarity.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/hash/digest.hpp"

namespace crd::compare {

// One document: a file given, or one record of an archive given.
struct SentenceDocument {
  std::string name;    // the record's URL, or the file's path
  std::string source;  // the file it was read from
  std::uint64_t offset = 0;
  std::vector<Digest> hashes;      // its sentences (chunks), in order, stop sentences left out
  std::vector<std::string> texts;  // their normalized text
};

struct ReadSettings {
  chunk::ChunkerKind chunker = chunk::ChunkerKind::Sentence;
  chunk::ChunkerOptions chunking;
  std::uint64_t max_record_bytes = 0;
  const discover::LabelRules* stop = nullptr;  // sentences to leave out (--stop-chunks, --min-chunk-length)
};

// Reads every input (files, directories, archives, @lists) into documents, in input order. A
// document that is not text, or that the chunker skips, is left out and counted
// ("skipped.compare.not_text", "skipped.<chunker reason>"), as are the readers' own skips.
std::vector<SentenceDocument> read_sentence_documents(const std::vector<std::string>& inputs,
                                                      const ReadSettings& settings, Counters& counters);

struct DocumentPair {
  std::uint32_t a = 0;  // indices into the documents, a < b
  std::uint32_t b = 0;
  detect::Overlap overlap;
};

// The pairs of documents that share at least one sentence held by at most `max_bucket`
// documents. Found through a sentence → documents index, so pairs sharing nothing cost nothing; a
// sentence held by more (navigation text) links no pairs — it would make n(n − 1)/2 of them — and
// is counted as "compare.capped_sentences" when the index is built. The pairs are made one
// document at a time and handed on, never kept: 10^4 documents sharing boilerplate make 5·10^7
// pairs, which held with their overlaps ran a 10 MB input to 5.9 GB and std::bad_alloc.
class PairIndex {
 public:
  PairIndex(const std::vector<SentenceDocument>& documents, std::uint64_t max_bucket, Counters& counters);
  // Calls `on_pair` for every pair, in (a, b) order; returns how many there were. Holds one
  // document's partners at a time beside the index.
  std::uint64_t for_each_pair(const std::function<void(const DocumentPair&)>& on_pair) const;

 private:
  const std::vector<SentenceDocument>& documents_;
  // sentence → the documents holding it, each once, ascending; capped sentences left out.
  std::unordered_map<Digest, std::vector<std::uint32_t>, DigestHasher> holders_;
};

// Every such pair, kept (for a few documents and for tests).
std::vector<DocumentPair> overlapping_pairs(const std::vector<SentenceDocument>& documents, std::uint64_t max_bucket,
                                            Counters& counters);

}  // namespace crd::compare
