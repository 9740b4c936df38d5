// Labeled documents (internal): crd label records each expert document's labels
// (/labels_documents), and detect --pairs compares flagged pages with them (/detection/pairs).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/detect/detection.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/output/result_rows.hpp"
#include "memory_budget.hpp"

namespace crd::pipeline {

// Collective. The /labels_documents rows of every page of this rank (keys: the page keys; scores of
// the expert corpus against its own labels), sorted by url across ranks.
std::vector<output::LabeledDocumentRow> labeled_document_rows(comm::Transport& transport,
                                                              const std::vector<std::string>& keys,
                                                              const detect::PageScores& scores,
                                                              std::size_t round_bytes);

// The labeled documents of the --labels files, and for each label id of the merged set (the ids
// detection uses: positions in hash order of all files' labels) the documents holding it.
struct LabeledDocuments {
  struct Holder {
    std::uint32_t document = 0;
    std::uint32_t count = 0;  // the label's positions in the document
  };
  std::vector<std::string> urls;
  std::vector<std::uint32_t> chunks;
  std::vector<std::uint64_t> holder_offsets{0};  // label id i: holders[holder_offsets[i] … [i+1])
  std::vector<Holder> holders;
};

// Collective (agreed: every rank throws alike). Every rank reads every file's /labels_documents
// and label hashes. UsageError for a file without /labels_documents. FatalError (agreed) past the
// budget's read_cap, as load_label_set. budget: the job's.
LabeledDocuments load_labeled_documents(comm::Transport& transport, const std::vector<std::string>& paths,
                                        const MemoryBudget& budget);

// Local. The bytes loading the labeled documents of `paths` peaks at — the rows of the largest
// file as read, the postings (label, document, count) sorted into the inverted list, and the list
// itself — from the files' dataset shapes alone, so that --memory can refuse before reading. A file
// without /labels_documents adds nothing (load_labeled_documents names it).
std::uint64_t labeled_documents_peak(const std::vector<std::string>& paths);

// Bytes the documents hold (--memory): the same on every rank, as every rank holds them all.
std::uint64_t held_bytes(const LabeledDocuments& documents);

// For each flagged page of `pages` (this rank's, in output order): its similarity pairs with the K
// labeled documents whose labels cover most of its positions (ties: more of the document's
// positions, then the smaller url). Local.
std::vector<output::SimilarityPairRow> similarity_pairs(std::span<const detect::PageRow> pages,
                                                        const LabeledDocuments& documents, std::uint64_t k);

}  // namespace crd::pipeline
