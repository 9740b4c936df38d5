// crd compare's computation (sentence_comparison.hpp).
#include "crd/compare/sentence_comparison.hpp"

#include <algorithm>

#include "crd/discover/discovery.hpp"
#include "crd/output/table_io.hpp"

namespace crd::compare {

std::uint64_t SentenceComparison::skipped() const {
  std::uint64_t out = 0;
  for (const auto& [name, value] : counters.values())
    if (name.rfind("skipped.", 0) == 0) out += value;
  return out;
}

void compare_sentences(SentenceComparison& out, const std::vector<std::string>& inputs, const ReadSettings& read,
                       std::uint64_t max_bucket, const discover::LabelLookup* labels) {
  out.documents = read_sentence_documents(inputs, read, out.counters);
  const auto& docs = out.documents;
  out.pairs.emplace(docs, max_bucket, out.counters);
  out.all_pairs = docs.size() < 2 ? 0 : std::uint64_t{docs.size()} * (docs.size() - 1) / 2;
  if (labels == nullptr) return;
  out.hits.resize(docs.size());
  for (std::size_t d = 0; d < docs.size(); ++d)
    for (std::uint32_t i = 0; i < docs[d].hashes.size(); ++i)
      if (const discover::LabelSource* l = labels->find(docs[d].hashes[i])) out.hits[d].push_back({i, l});
}

const std::string& LabelUrls::url_of(const discover::LabelSource& label) {
  auto& reader = readers_.try_emplace(label.path, label.path).first->second;
  const std::string column =
      output::Table<discover::LabelRow>{label.group.c_str()}.column(&discover::LabelRow::sample_url);
  auto [it, inserted] = urls_.try_emplace(&label);
  if (inserted && reader.has(column)) it->second = reader.read_strings(column, label.row, 1).at(0);
  return it->second;  // "" for a group without sample URLs (/detection/labels)
}

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
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& x, const auto& y) { return x.positions.size() > y.positions.size(); });
  return out;
}

}  // namespace crd::compare
