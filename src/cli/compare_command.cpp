// crd compare: printing what compare::compare_sentences finds (crd/compare/sentence_comparison.hpp),
// as text or as one JSON object.
#include <cstdio>

#include "commands.hpp"
#include "crd/base/printable.hpp"
#include "crd/chunk/chunking_identity.hpp"
#include "crd/compare/sentence_comparison.hpp"
#include "crd/detect/similarity.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/pipeline/label_lookup.hpp"
#include "crd/report/json_writer.hpp"
#include "text_format.hpp"

namespace crd::cli {
namespace {

using compare::LabelHit;
using compare::SentenceComparison;

std::string distribution_text(const std::vector<bool>& bits, std::uint32_t k) {
  std::string out;
  for (const std::uint32_t n : detect::overlap_distribution(bits, k))
    out += (out.empty() ? "" : " ") + std::to_string(n);
  return out;
}

void json_distribution(report::JsonWriter& j, const char* key, const std::vector<bool>& bits, std::uint32_t k) {
  const auto d = detect::overlap_distribution(bits, k);
  j.key(key).array(std::span<const std::uint32_t>(d));
}

void print_pair(const std::vector<compare::SentenceDocument>& docs, const compare::DocumentPair& p,
                const CompareSettings& s, std::uint64_t show) {
  const compare::SentenceDocument& a = docs[p.a];
  const compare::SentenceDocument& b = docs[p.b];
  std::printf("[%u] ~ [%u]: %zu matching sentences, similarity <%.3f, %.3f>\n", p.a, p.b, p.overlap.matching.size(),
              p.overlap.pair.first, p.overlap.pair.second);
  std::printf("  [%u] %s (%zu sentences), overlap (k=%u): %s\n", p.a, printable(a.name).c_str(), a.hashes.size(),
              s.granularity, distribution_text(p.overlap.in_a, s.granularity).c_str());
  std::printf("  [%u] %s (%zu sentences), overlap (k=%u): %s\n", p.b, printable(b.name).c_str(), b.hashes.size(),
              s.granularity, distribution_text(p.overlap.in_b, s.granularity).c_str());
  for (std::size_t m = 0; m < std::min<std::uint64_t>(show, p.overlap.matching.size()); ++m) {
    const std::uint32_t i = p.overlap.matching[m];
    std::printf("  sentence %u = %u: \"%s\"\n", i, p.overlap.matching_b[m], one_line(a.texts[i], 90).c_str());
  }
}

void json_pair(report::JsonWriter& j, const std::vector<compare::SentenceDocument>& docs,
               const compare::DocumentPair& p, const CompareSettings& s) {
  j.begin_object().key("a").value(std::uint64_t{p.a}).key("b").value(std::uint64_t{p.b});
  j.key("matching").value(std::uint64_t{p.overlap.matching.size()});
  j.key("similarity").begin_array().value(p.overlap.pair.first).value(p.overlap.pair.second).end_array();
  json_distribution(j, "distribution_a", p.overlap.in_a, s.granularity);
  json_distribution(j, "distribution_b", p.overlap.in_b, s.granularity);
  j.key("sentences").begin_array();
  for (std::size_t m = 0; m < p.overlap.matching.size(); ++m) {
    const std::uint32_t i = p.overlap.matching[m];
    j.begin_object()
        .key("position_a")
        .value(std::uint64_t{i})
        .key("position_b")
        .value(std::uint64_t{p.overlap.matching_b[m]});
    j.key("text").value(docs[p.a].texts[i]).end_object();
  }
  j.end_array().end_object();
}

void json_labels(report::JsonWriter& j, const SentenceComparison& c, compare::LabelUrls& urls, std::uint32_t k) {
  const auto& docs = c.documents;
  j.key("labels").begin_array();
  for (std::size_t d = 0; d < docs.size(); ++d) {
    j.begin_object().key("document").value(std::uint64_t{d}).key("labeled").value(std::uint64_t{c.hits[d].size()});
    j.key("containment").value(detect::similarity_term(c.hits[d].size(), docs[d].hashes.size()));
    j.key("labeled_documents").begin_array();
    for (const auto& ld : labeled_documents(docs[d], c.hits[d], urls)) {
      j.begin_object().key("url").value(ld.url).key("sentences").value(std::uint64_t{ld.positions.size()});
      j.key("positions").array(std::span<const std::uint32_t>(ld.positions));
      json_distribution(j, "distribution", ld.bits, k);
      j.end_object();
    }
    j.end_array().key("matches").begin_array();
    for (const LabelHit& h : c.hits[d]) {
      j.begin_object().key("position").value(std::uint64_t{h.position}).key("text").value(docs[d].texts[h.position]);
      j.key("file").value(h.label->path).key("group").value(h.label->group).key("row").value(h.label->row).end_object();
    }
    j.end_array().end_object();
  }
  j.end_array();
}

// Writes what the writer holds so far and empties it: the pairs are written as they are made.
void flush(report::JsonWriter& j) {
  const std::string part = j.take();
  std::fwrite(part.data(), 1, part.size(), stdout);
}

constexpr std::size_t kFlushBytes = 1u << 20;

void print_json(const SentenceComparison& c, chunk::ChunkerKind chunker, const CompareSettings& s, bool with_labels) {
  report::JsonWriter j;
  j.begin_object().key("chunker").value(name_of(chunker)).key("granularity").value(std::uint64_t{s.granularity});
  j.key("documents").begin_array();
  for (const auto& d : c.documents) {
    j.begin_object().key("name").value(d.name).key("source").value(d.source).key("offset").value(d.offset);
    j.key("sentences").value(std::uint64_t{d.hashes.size()}).end_object();
  }
  j.end_array().key("counters").begin_object();
  for (const auto& [name, value] : c.counters.values()) j.key(name).value(value);
  j.end_object().key("pairs").begin_array();
  const std::uint64_t pairs = c.pairs->for_each_pair([&](const compare::DocumentPair& p) {
    json_pair(j, c.documents, p, s);
    if (j.str().size() >= kFlushBytes) flush(j);
  });
  j.end_array().key("pairs_without_overlap").value(c.all_pairs - pairs);
  compare::LabelUrls urls;
  if (with_labels) json_labels(j, c, urls, s.granularity);
  j.end_object();
  flush(j);
  std::printf("\n");
}

void print_labels(const SentenceComparison& c, const CompareSettings& s, std::uint64_t show) {
  const auto& docs = c.documents;
  compare::LabelUrls urls;
  for (std::size_t d = 0; d < c.hits.size(); ++d) {
    const auto& hits = c.hits[d];
    std::printf("[%zu] against the labels: %zu of %zu sentences labeled (%.3f)\n", d, hits.size(),
                docs[d].hashes.size(), detect::similarity_term(hits.size(), docs[d].hashes.size()));
    for (const auto& ld : labeled_documents(docs[d], hits, urls))
      std::printf("  from %s: %zu sentences, overlap (k=%u): %s\n",
                  ld.url.empty() ? "(no sample URL)" : printable(ld.url).c_str(), ld.positions.size(), s.granularity,
                  distribution_text(ld.bits, s.granularity).c_str());
    for (std::size_t m = 0; m < std::min<std::uint64_t>(show, hits.size()); ++m) {
      const LabelHit& h = hits[m];
      std::printf("  sentence %u: \"%s\"  [%s%s row %llu]\n", h.position,
                  one_line(docs[d].texts[h.position], 90).c_str(), printable(h.label->path).c_str(),
                  printable(h.label->group).c_str(), static_cast<unsigned long long>(h.label->row));
    }
  }
}

void print_summary(const SentenceComparison& c, std::uint64_t pairs, const CompareSettings& s) {
  std::printf("%zu documents, %llu of %llu pairs share a sentence", c.documents.size(),
              static_cast<unsigned long long>(pairs), static_cast<unsigned long long>(c.all_pairs));
  if (const std::uint64_t capped = c.counters.get("compare.capped_sentences"); capped > 0)
    std::printf(", %llu sentences in more than %llu documents linked none", static_cast<unsigned long long>(capped),
                static_cast<unsigned long long>(s.max_bucket));
  if (const std::uint64_t skipped = c.skipped(); skipped > 0) {
    std::printf(", %llu skipped:", static_cast<unsigned long long>(skipped));
    for (const auto& [name, value] : c.counters.values())
      if (name.rfind("skipped.", 0) == 0)
        std::printf(" %s=%llu", name.c_str() + 8, static_cast<unsigned long long>(value));
  }
  std::printf("\n");
}

}  // namespace

int run_compare(Invocation& in) {
  const Settings& s = in.settings;
  const auto& scan = s.common.scan;
  const discover::StopItems stop(s.discover.stop_chunks, s.discover.min_chunk_length);
  const discover::LabelRules stop_rules = stop.chunk_rules();
  const discover::LabelLookup labels =
      pipeline::load_label_lookup(s.labels, chunk::chunking_identity(scan.chunker, scan.chunking));
  SentenceComparison c;
  compare::compare_sentences(c, in.inputs, {scan.chunker, scan.chunking, scan.read.max_record_bytes, &stop_rules},
                             s.compare.max_bucket, s.labels.empty() ? nullptr : &labels);
  if (s.compare.json) {
    print_json(c, scan.chunker, s.compare, !s.labels.empty());
    return 0;
  }
  for (std::size_t d = 0; d < c.documents.size(); ++d)
    std::printf("[%zu] %s: %zu sentences\n", d, printable(c.documents[d].name).c_str(), c.documents[d].hashes.size());
  const std::uint64_t pairs =
      c.pairs->for_each_pair([&](const compare::DocumentPair& p) { print_pair(c.documents, p, s.compare, s.show); });
  print_labels(c, s.compare, s.show);
  print_summary(c, pairs, s.compare);
  return 0;
}

}  // namespace crd::cli
