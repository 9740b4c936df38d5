// /labels_documents and /detection/pairs: which labeled documents hold a label, and the similarity
// pairs of flagged pages with the documents they overlap most.
#include "labeled_documents.hpp"

#include <algorithm>
#include <map>

#include "agreed_errors.hpp"
#include "crd/base/error.hpp"
#include "crd/base/heap_bytes.hpp"
#include "crd/detect/similarity.hpp"
#include "crd/discover/discovery.hpp"
#include "crd/output/result_reader.hpp"
#include "crd/output/schema.hpp"
#include "crd/output/table_io.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "label_set.hpp"

namespace crd::pipeline {

std::vector<output::LabeledDocumentRow> labeled_document_rows(comm::Transport& transport,
                                                              const std::vector<std::string>& keys,
                                                              const detect::PageScores& scores,
                                                              std::size_t round_bytes) {
  std::vector<output::LabeledDocumentRow> rows;
  rows.reserve(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    output::LabeledDocumentRow row;
    row.url = keys[scores.page[i]];
    row.chunks = scores.chunks[i];
    row.label_ids.assign(scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i]),
                         scores.label_ids.begin() + static_cast<std::ptrdiff_t>(scores.match_offsets[i + 1]));
    rows.push_back(std::move(row));
  }
  return shuffle::sort_across_ranks(transport, std::move(rows), FieldLess{}, round_bytes);
}

namespace {

std::vector<Digest> label_hashes(const output::ResultReader& reader, const std::string& group) {
  const auto bytes =
      reader.read_matrix(output::Table<discover::LabelRow>{group.c_str()}.column(&discover::LabelRow::hash));
  std::vector<Digest> out(bytes.size() / 20);
  for (std::size_t i = 0; i < out.size(); ++i)
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(i * 20), 20, out[i].bytes.begin());
  return out;
}

LabeledDocuments read_labeled_documents(const std::vector<std::string>& paths, std::uint64_t read_cap) {
  std::vector<std::unique_ptr<output::ResultReader>> readers;
  std::vector<std::vector<Digest>> file_hashes;
  std::vector<Digest> merged;
  for (const auto& path : paths) {
    readers.push_back(std::make_unique<output::ResultReader>(path, read_cap));
    const output::ResultReader& reader = *readers.back();
    const std::string group = labels_group(reader);
    if (group != output::schema::kLabels.group || !reader.has(output::schema::kLabelsDocuments.group))
      throw UsageError("option --pairs: " + path + " has no " + output::schema::kLabelsDocuments.group +
                       " (labeled documents are written by crd label)");
    file_hashes.push_back(label_hashes(reader, group));
    merged.insert(merged.end(), file_hashes.back().begin(), file_hashes.back().end());
  }
  // The ids load_label_set gives: positions in hash order of every file's labels, duplicates merged.
  std::sort(merged.begin(), merged.end());
  merged.erase(std::unique(merged.begin(), merged.end()), merged.end());

  LabeledDocuments out;
  std::vector<std::pair<std::uint64_t, LabeledDocuments::Holder>> postings;  // (label id, holder)
  for (std::size_t f = 0; f < readers.size(); ++f) {
    const std::vector<Digest>& hashes = file_hashes[f];
    for (auto& row : output::read_table(*readers[f], output::schema::kLabelsDocuments, 0, output::ResultReader::kAll)) {
      const auto document = static_cast<std::uint32_t>(out.urls.size());
      std::map<std::uint64_t, std::uint32_t> counts;  // label id → positions
      for (const std::uint32_t label_row : row.label_ids) {
        if (label_row >= hashes.size())
          throw UsageError(paths[f] + ": " + output::schema::kLabelsDocuments.group + " names label row " +
                           std::to_string(label_row) + " of " + std::to_string(hashes.size()));
        const auto id = static_cast<std::uint64_t>(std::lower_bound(merged.begin(), merged.end(), hashes[label_row]) -
                                                   merged.begin());
        ++counts[id];
      }
      for (const auto& [id, count] : counts) postings.push_back({id, {document, count}});
      out.urls.push_back(std::move(row.url));
      out.chunks.push_back(row.chunks);
    }
  }
  std::stable_sort(postings.begin(), postings.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out.holder_offsets.assign(merged.size() + 1, 0);
  for (const auto& p : postings) ++out.holder_offsets[p.first + 1];
  for (std::size_t i = 1; i < out.holder_offsets.size(); ++i) out.holder_offsets[i] += out.holder_offsets[i - 1];
  out.holders.reserve(postings.size());
  for (const auto& p : postings) out.holders.push_back(p.second);
  return out;
}

}  // namespace

std::uint64_t labeled_documents_peak(const std::vector<std::string>& paths) {
  using Row = output::LabeledDocumentRow;
  const output::Table<Row>& table = output::schema::kLabelsDocuments;
  std::uint64_t labels = 0, positions = 0, documents = 0, url_bytes = 0, largest_file = 0;
  for (const auto& path : paths) {
    const output::ResultReader reader(path);
    const std::string group = labels_group(reader);
    labels += reader.rows(output::Table<discover::LabelRow>{group.c_str()}.column(&discover::LabelRow::hash));
    if (!reader.has(table.column(&Row::url))) continue;
    const output::DatasetShape url = reader.shape(table.column(&Row::url));
    const std::uint64_t d = url.dims.empty() ? 0 : url.dims[0];
    const std::uint64_t p = reader.rows(table.column(&Row::label_ids));
    const std::uint64_t heap = url.element_bytes + 1;  // a url's characters, at most the stored width
    largest_file = std::max(largest_file, d * (sizeof(Row) + heap) + p * sizeof(std::uint32_t));
    documents += d;
    positions += p;
    url_bytes += d * heap;
  }
  const std::uint64_t postings = positions;  // at most one per labeled position
  const std::uint64_t list = documents * (sizeof(std::string) + sizeof(std::uint32_t)) + url_bytes +
                             (labels + 1) * sizeof(std::uint64_t) + postings * sizeof(LabeledDocuments::Holder);
  const std::uint64_t hashes = 2 * labels * sizeof(Digest);  // each file's label hashes and the merged ids
  return list + largest_file + hashes + postings * sizeof(std::pair<std::uint64_t, LabeledDocuments::Holder>);
}

LabeledDocuments load_labeled_documents(comm::Transport& transport, const std::vector<std::string>& paths,
                                        const MemoryBudget& budget) {
  // As load_label_set: a file only some ranks can read must not leave the others in a collective.
  LabeledDocuments out;
  agree_on_errors(transport, [&] { out = read_labeled_documents(paths, budget.read_cap(false)); });
  return out;
}

std::uint64_t held_bytes(const LabeledDocuments& d) {
  std::uint64_t bytes = d.urls.capacity() * sizeof(std::string) + d.chunks.capacity() * sizeof(std::uint32_t) +
                        d.holder_offsets.capacity() * sizeof(std::uint64_t) +
                        d.holders.capacity() * sizeof(LabeledDocuments::Holder);
  for (const std::string& url : d.urls) bytes += heap_bytes(url);
  return bytes;
}

std::vector<output::SimilarityPairRow> similarity_pairs(std::span<const detect::PageRow> pages,
                                                        const LabeledDocuments& documents, std::uint64_t k) {
  struct Overlap {
    std::uint32_t matching = 0;  // distinct shared labels
    std::uint32_t page_positions = 0;
    std::uint64_t document_positions = 0;
  };
  std::vector<output::SimilarityPairRow> out;
  for (const detect::PageRow& page : pages) {
    if (page.flagged == 0 || k == 0) continue;
    std::map<std::uint32_t, std::uint32_t> page_counts;  // label id → positions in the page
    for (const std::uint32_t id : page.label_ids) ++page_counts[id];
    std::map<std::uint32_t, Overlap> by_document;
    for (const auto& [id, count] : page_counts) {
      if (id + 1 >= documents.holder_offsets.size()) continue;  // a label no labeled document holds
      for (std::uint64_t h = documents.holder_offsets[id]; h < documents.holder_offsets[id + 1]; ++h) {
        Overlap& o = by_document[documents.holders[h].document];
        ++o.matching;
        o.page_positions += count;
        o.document_positions += documents.holders[h].count;
      }
    }
    std::vector<std::pair<std::uint32_t, Overlap>> ranked(by_document.begin(), by_document.end());
    const auto better = [&](const auto& a, const auto& b) {
      if (a.second.page_positions != b.second.page_positions) return a.second.page_positions > b.second.page_positions;
      if (a.second.document_positions != b.second.document_positions)
        return a.second.document_positions > b.second.document_positions;
      return documents.urls[a.first] < documents.urls[b.first];
    };
    const std::size_t keep = static_cast<std::size_t>(std::min<std::uint64_t>(k, ranked.size()));
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end(), better);
    for (std::size_t r = 0; r < keep; ++r) {
      const auto& [document, o] = ranked[r];
      out.push_back({page.url, documents.urls[document], o.matching,
                     detect::similarity_term(o.page_positions, page.chunks),
                     detect::similarity_term(o.document_positions, documents.chunks[document])});
    }
  }
  return out;
}

}  // namespace crd::pipeline
