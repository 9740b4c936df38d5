// The exchanges of crd quilts, each one shuffle::reduce_by_key / group_by_key (no MPI here):
//   1. own_documents: each document to the owner of its id, records of one URL united;
//   2. document_frequency: (gram, 1) per document holding it, summed at the gram's owner — a
//      document counts a gram once, since its grams are a set and its records were united;
//   3. the owner answers every rank that sent it a gram with 2 ≤ df ≤ max m (the candidate patch
//      grams) by routing (rank, gram) to that rank;
//   4. posting lists: (gram → documents holding it), for candidate grams only, at the gram's owner;
//   5. holder_classes: the grams whose holder lists are equal grouped into one weighted class, at
//      the owner of the list's hash (a copied passage's grams share their holders);
//   6. classes_by_document: each class once to every rank that owns one of its holders, where the
//      covers are built.
// Owner of a document id or a holder list's hash: scale_to_rank(key, nranks); of a gram: the same
// over its low 32 bits (gram_owner), so that a pass over the gram space (a range of leading bits)
// spreads over every rank. All are collective.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/quilts/records.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::quilts {

int owner_of_key(std::uint64_t key, int nranks);
int gram_owner(std::uint64_t gram, int nranks);

// Stage 1. Returns this rank's documents, ascending by id. The documents travel in batches of
// about batch_bytes of gram sets, each moved out of `local` as it goes: the gram sets are most of
// a rank's memory, and one shuffle of all of them would hold them two or three times over.
inline constexpr std::uint64_t kDocumentBatchBytes = std::uint64_t{8} << 20;
std::vector<Document> own_documents(comm::Transport& transport, std::vector<Document> local,
                                    const shuffle::ShuffleConfig& config,
                                    std::uint64_t batch_bytes = kDocumentBatchBytes);

// A pass over the gram space: slice `index` of `count` equal slices by the gram's leading 32 bits,
// so a pass's grams are one range of every document's ascending set (testing every gram in every
// pass would cost a pass count times the grams). The owner takes the low bits (gram_owner), so
// every pass spreads over every rank.
struct GramSlice {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
  // The first gram past this slice; the last slice has no end (nullopt).
  std::optional<std::uint64_t> end() const;
};

// The documents' gram sets a slice at a time, in slice order: slice p's range of a set begins
// where slice p − 1's ended, so a pass walks only its own grams (no binary search per document
// and pass).
class SliceWalk {
 public:
  SliceWalk(const std::vector<Document>& docs, std::uint32_t count);
  // The next slice's range of each document's grams, by document (empty for collided ones).
  const std::vector<std::span<const std::uint64_t>>& next();

 private:
  const std::vector<Document>& docs_;
  GramSlice slice_;
  std::vector<std::size_t> at_;  // where each set's next slice begins
  std::vector<std::span<const std::uint64_t>> ranges_;
};

// Stages 2–4 over this rank's owned documents, for the grams of `ranges` (one range of each
// document's set, by document: a SliceWalk's). Returns the holdings of the grams this rank owns
// with 2 ≤ df ≤ max_m, ascending by (gram, doc).
std::vector<Holding> patch_postings(comm::Transport& transport, const std::vector<Document>& owned,
                                    const std::vector<std::span<const std::uint64_t>>& ranges, std::uint32_t max_m,
                                    const shuffle::ShuffleConfig& config);
// The same over the whole sets, in one pass.
std::vector<Holding> patch_postings(comm::Transport& transport, const std::vector<Document>& owned, std::uint32_t max_m,
                                    const shuffle::ShuffleConfig& config);

// Stage 5. The holder classes of `holdings` (patch_postings' result): the grams of equal holder
// lists grouped here, then combined at the owner of their hash. Returns this rank's classes,
// ascending by (hash, holders); each class's grams are counted once over all ranks.
std::vector<HolderClass> holder_classes(comm::Transport& transport, std::vector<Holding> holdings,
                                        const shuffle::ShuffleConfig& config);

// The members stage 6 sends from `classes`: each class's holders once per rank owning one of them.
std::uint64_t members_sent(const std::vector<HolderClass>& classes, int nranks);

// Stage 6. Every class to each rank owning one of its holders, once per rank. Returns the members
// of the classes holding this rank's documents, ascending by (first_gram, doc): one run per class.
std::vector<ClassMember> classes_by_document(comm::Transport& transport, const std::vector<HolderClass>& classes,
                                             const shuffle::ShuffleConfig& config);

}  // namespace crd::quilts
