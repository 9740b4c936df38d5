// crd compare: documents against each other by shared sentences (Campbell et al., seed 004 §6):
// per pair, the matching sentences, the similarity pair and the overlap distribution; against a
// labeled set, which labels a document holds and from which labeled documents (their sample URLs).
// One process, no MPI job: meant for a handful of documents or one WARC.
#include <cstdio>
#include <map>

#include "commands.hpp"
#include "compare_documents.hpp"
#include "label_lookup.hpp"
#include "option_groups.hpp"
#include "option_values.hpp"
#include "text_format.hpp"
#include "crd/base/error.hpp"
#include "crd/base/printable.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/table_io.hpp"
#include "crd/report/json_writer.hpp"
#include "crd/pipeline/chunking_identity.hpp"

namespace crd::cli {
namespace {

struct CompareSettings {
  std::uint32_t granularity = 5;
  std::uint64_t show = 5;
  std::uint64_t max_bucket = 1000;
  bool json = false;
};

// One labeled sentence of a document.
struct LabelHit {
  std::uint32_t position;
  const LabelSource* label;
};

// The labeled document a label was sampled from (its sample_url), read only for labels that hit.
class LabelUrls {
 public:
  const std::string& url_of(const LabelSource& label) {
    auto& reader = readers_.try_emplace(label.path, label.path).first->second;
    const std::string column = output::Table<discover::LabelRow>{label.group.c_str()}.column(&discover::LabelRow::sample_url);
    auto [it, inserted] = urls_.try_emplace(&label);
    if (inserted && reader.has(column)) it->second = reader.read_strings(column, label.row, 1).at(0);
    return it->second;  // "" for a group without sample URLs (/detection/labels)
  }

 private:
  std::map<std::string, output::ResultReader> readers_;
  std::map<const LabelSource*, std::string> urls_;
};

// Per document: its labeled sentences, grouped by the labeled document they were sampled from.
struct LabeledDocument {
  std::string url;
  std::vector<bool> bits;  // the page's bit vector against this labeled document
  std::vector<std::uint32_t> positions;
};

std::vector<LabeledDocument> labeled_documents(const SentenceDocument& doc, const std::vector<LabelHit>& hits,
                                               LabelUrls& urls) {
  std::map<std::string, LabeledDocument> by_url;
  for (const LabelHit& h : hits) {
    const std::string& url = urls.url_of(*h.label);
    auto& entry = by_url[url];
    if (entry.bits.empty()) {
      entry.url = url;
      entry.bits.assign(doc.hashes.size(), false);
    }
    entry.bits[h.position] = true;
    entry.positions.push_back(h.position);
  }
  std::vector<LabeledDocument> out;
  for (auto& [url, entry] : by_url) out.push_back(std::move(entry));
  // Most overlapping first; ties by URL, so the order is fixed.
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.positions.size() > y.positions.size(); });
  return out;
}

std::string distribution_text(const std::vector<bool>& bits, std::uint32_t k) {
  std::string out;
  for (const std::uint32_t n : detect::overlap_distribution(bits, k)) out += (out.empty() ? "" : " ") + std::to_string(n);
  return out;
}

void json_distribution(report::JsonWriter& j, const char* key, const std::vector<bool>& bits, std::uint32_t k) {
  const auto d = detect::overlap_distribution(bits, k);
  j.key(key).array(std::span<const std::uint32_t>(d));
}

void print_pair(const std::vector<SentenceDocument>& docs, const DocumentPair& p, const CompareSettings& s) {
  const SentenceDocument& a = docs[p.a];
  const SentenceDocument& b = docs[p.b];
  std::printf("[%u] ~ [%u]: %zu matching sentences, similarity <%.3f, %.3f>\n", p.a, p.b, p.overlap.matching.size(),
              p.overlap.pair.first, p.overlap.pair.second);
  std::printf("  [%u] %s (%zu sentences), overlap (k=%u): %s\n", p.a, printable(a.name).c_str(), a.hashes.size(),
              s.granularity, distribution_text(p.overlap.in_a, s.granularity).c_str());
  std::printf("  [%u] %s (%zu sentences), overlap (k=%u): %s\n", p.b, printable(b.name).c_str(), b.hashes.size(),
              s.granularity, distribution_text(p.overlap.in_b, s.granularity).c_str());
  for (std::size_t m = 0; m < std::min<std::uint64_t>(s.show, p.overlap.matching.size()); ++m) {
    const std::uint32_t i = p.overlap.matching[m];
    std::printf("  sentence %u = %u: \"%s\"\n", i, p.overlap.matching_b[m], one_line(a.texts[i], 90).c_str());
  }
}

void json_pair(report::JsonWriter& j, const std::vector<SentenceDocument>& docs, const DocumentPair& p,
               const CompareSettings& s) {
  j.begin_object().key("a").value(std::uint64_t{p.a}).key("b").value(std::uint64_t{p.b});
  j.key("matching").value(std::uint64_t{p.overlap.matching.size()});
  j.key("similarity").begin_array().value(p.overlap.pair.first).value(p.overlap.pair.second).end_array();
  json_distribution(j, "distribution_a", p.overlap.in_a, s.granularity);
  json_distribution(j, "distribution_b", p.overlap.in_b, s.granularity);
  j.key("sentences").begin_array();
  for (std::size_t m = 0; m < p.overlap.matching.size(); ++m) {
    const std::uint32_t i = p.overlap.matching[m];
    j.begin_object().key("position_a").value(std::uint64_t{i}).key("position_b").value(std::uint64_t{p.overlap.matching_b[m]});
    j.key("text").value(docs[p.a].texts[i]).end_object();
  }
  j.end_array().end_object();
}

}  // namespace

int compare_command(int argc, char** argv) {
  pipeline::CommonOptions common;
  common.scan.chunker = chunk::ChunkerKind::Sentence;  // the paper's unit; --chunker may change it
  pipeline::DiscoverOptions stop_options;
  std::vector<std::string> label_paths;
  CompareSettings settings;
  std::uint64_t granularity = settings.granularity;
  po::options_description visible(
      "crd compare [options] DOCUMENT… (files, directories, WARC/ARC: each record is a document)\n\n"
      "Documents against each other by shared sentences (no MPI job): for each pair sharing one, the\n"
      "matching sentences, the similarity pair <|d1&d2|/|d1|, |d1&d2|/|d2|> and the overlap distribution\n"
      "(sentences shared per run of k); with --labels, the labeled sentences of each document and the\n"
      "labeled documents (sample URLs) they come from (docs/sentences.md)");
  visible.add(chunking_options(common)).add(discovery_options(stop_options, false));
  visible.add_options()
      ("labels", po::value<std::vector<std::string>>(&label_paths), "also compare each document with a labeled set (crd result files)")
      ("granularity,k", count_value(granularity), "overlap distribution: sentences per cluster (the paper's k)")
      ("show", count_value(settings.show), "matching sentences printed per pair or document")
      ("max-bucket", count_value(settings.max_bucket), "a sentence held by more documents than this links no pairs")
      ("json", po::bool_switch(&settings.json), "one JSON object on stdout instead of text")
      ("help,h", "show this help");
  if (print_help(argc, argv, visible)) return 0;
  const auto inputs = parse_command(argc, argv, visible, "no document given (files, directories or archives)").inputs;
  if (granularity == 0 || granularity > 1'000'000) throw UsageError("option --granularity: must be 1..1000000");
  settings.granularity = static_cast<std::uint32_t>(granularity);

  const discover::StopItems stop(stop_options.stop_chunks, stop_options.min_chunk_length);
  const discover::LabelRules stop_rules = stop.chunk_rules();
  const LabelLookup labels = load_label_lookup(label_paths, pipeline::chunking_identity(common.scan));
  Counters counters;
  const std::vector<SentenceDocument> docs = read_sentence_documents(
      inputs, {common.scan.chunker, common.scan.chunking, common.scan.read.max_record_bytes, &stop_rules}, counters);
  const std::vector<DocumentPair> pairs = overlapping_pairs(docs, settings.max_bucket, counters);
  const std::uint64_t all_pairs = docs.size() < 2 ? 0 : std::uint64_t{docs.size()} * (docs.size() - 1) / 2;

  std::vector<std::vector<LabelHit>> hits(label_paths.empty() ? 0 : docs.size());
  for (std::size_t d = 0; d < hits.size(); ++d)
    for (std::uint32_t i = 0; i < docs[d].hashes.size(); ++i)
      if (const LabelSource* l = labels.find(docs[d].hashes[i])) hits[d].push_back({i, l});
  LabelUrls urls;

  if (settings.json) {
    report::JsonWriter j;
    j.begin_object().key("chunker").value(name_of(common.scan.chunker)).key("granularity").value(std::uint64_t{settings.granularity});
    j.key("documents").begin_array();
    for (const auto& d : docs) {
      j.begin_object().key("name").value(d.name).key("source").value(d.source).key("offset").value(d.offset);
      j.key("sentences").value(std::uint64_t{d.hashes.size()}).end_object();
    }
    j.end_array().key("counters").begin_object();
    for (const auto& [name, value] : counters.values()) j.key(name).value(value);
    j.end_object().key("pairs").begin_array();
    for (const auto& p : pairs) json_pair(j, docs, p, settings);
    j.end_array().key("pairs_without_overlap").value(all_pairs - pairs.size());
    if (!label_paths.empty()) {
      j.key("labels").begin_array();
      for (std::size_t d = 0; d < docs.size(); ++d) {
        j.begin_object().key("document").value(std::uint64_t{d}).key("labeled").value(std::uint64_t{hits[d].size()});
        j.key("containment").value(detect::similarity_term(hits[d].size(), docs[d].hashes.size()));
        j.key("labeled_documents").begin_array();
        for (const auto& ld : labeled_documents(docs[d], hits[d], urls)) {
          j.begin_object().key("url").value(ld.url).key("sentences").value(std::uint64_t{ld.positions.size()});
          j.key("positions").array(std::span<const std::uint32_t>(ld.positions));
          json_distribution(j, "distribution", ld.bits, settings.granularity);
          j.end_object();
        }
        j.end_array().key("matches").begin_array();
        for (const LabelHit& h : hits[d]) {
          j.begin_object().key("position").value(std::uint64_t{h.position}).key("text").value(docs[d].texts[h.position]);
          j.key("file").value(h.label->path).key("group").value(h.label->group).key("row").value(h.label->row).end_object();
        }
        j.end_array().end_object();
      }
      j.end_array();
    }
    j.end_object();
    std::printf("%s\n", j.str().c_str());
    return 0;
  }

  for (std::size_t d = 0; d < docs.size(); ++d)
    std::printf("[%zu] %s: %zu sentences\n", d, printable(docs[d].name).c_str(), docs[d].hashes.size());
  for (const auto& p : pairs) print_pair(docs, p, settings);
  for (std::size_t d = 0; d < hits.size(); ++d) {
    std::printf("[%zu] against the labels: %zu of %zu sentences labeled (%.3f)\n", d, hits[d].size(), docs[d].hashes.size(),
                detect::similarity_term(hits[d].size(), docs[d].hashes.size()));
    for (const auto& ld : labeled_documents(docs[d], hits[d], urls))
      std::printf("  from %s: %zu sentences, overlap (k=%u): %s\n", ld.url.empty() ? "(no sample URL)" : printable(ld.url).c_str(),
                  ld.positions.size(), settings.granularity, distribution_text(ld.bits, settings.granularity).c_str());
    for (std::size_t m = 0; m < std::min<std::uint64_t>(settings.show, hits[d].size()); ++m) {
      const LabelHit& h = hits[d][m];
      std::printf("  sentence %u: \"%s\"  [%s%s row %llu]\n", h.position, one_line(docs[d].texts[h.position], 90).c_str(),
                  printable(h.label->path).c_str(), printable(h.label->group).c_str(),
                  static_cast<unsigned long long>(h.label->row));
    }
  }
  std::printf("%zu documents, %zu of %llu pairs share a sentence", docs.size(), pairs.size(),
              static_cast<unsigned long long>(all_pairs));
  std::uint64_t skipped = 0;
  for (const auto& [name, value] : counters.values())
    if (name.rfind("skipped.", 0) == 0) skipped += value;
  if (const std::uint64_t capped = counters.get("compare.capped_sentences"); capped > 0)
    std::printf(", %llu sentences in more than %llu documents linked none", static_cast<unsigned long long>(capped),
                static_cast<unsigned long long>(settings.max_bucket));
  if (skipped > 0) {
    std::printf(", %llu skipped:", static_cast<unsigned long long>(skipped));
    for (const auto& [name, value] : counters.values())
      if (name.rfind("skipped.", 0) == 0) std::printf(" %s=%llu", name.c_str() + 8, static_cast<unsigned long long>(value));
  }
  std::printf("\n");
  return 0;
}

}  // namespace crd::cli
