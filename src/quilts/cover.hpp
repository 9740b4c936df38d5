// sources(d), Najork 2012, §2: the greedy set cover of d's patch grams by other documents, over its
// holder classes (weighted by their grams). Pure, one document at a time; the pipeline calls it
// at the document's owner rank.
#pragma once

#include <cstdint>
#include <span>
#include <vector>


namespace crd::quilts {

struct Source {
  std::uint64_t doc = 0;
  std::uint64_t covered = 0;  // patch grams it covered that the sources before it had not
  bool operator==(const Source&) const = default;
};

struct Cover {
  std::uint64_t patch_grams = 0;
  std::vector<Source> sources;  // in the order the greedy algorithm took them
};

struct CoverRules {
  std::uint32_t m = 50;           // patch gram: 2 ≤ df ≤ m
  double min_source_share = 0.0;  // φ: stop before a source that would cover < φ·|patch grams|
  bool foreign = false;           // sources must lie on another server than the document
};

// One holder class of a document, as its cover sees it: `grams` patch grams, each held by exactly
// the same `df` documents (the document itself included).
struct HeldClass {
  std::uint64_t grams = 0;
  std::uint32_t df = 0;
};

// Another holder of class `cls` (an index into the classes): candidate `candidate` (an index into
// the candidates' ids), on server `server`.
struct OtherHolder {
  std::uint32_t candidate = 0;
  std::uint32_t cls = 0;
  std::uint64_t server = 0;
};

// Scratch space reused by the covers of one rank: a counter per candidate, zero between covers, so
// grouping a cover's pairs by candidate costs their number, not a sort of them.
class CoverScratch {
 public:
  explicit CoverScratch(std::size_t candidates) : slot_(candidates, 0) {}

 private:
  friend struct CoverBuilder;
  std::vector<std::uint32_t> slot_;
  std::vector<std::uint32_t> touched_, classes_;
  std::vector<std::size_t> start_;
};

// self_server: the document's server; classes: its holder classes, any df; others: every other
// holder of each, in any order; candidate_ids: the candidates' document ids, ascending (the index
// order is the id order; the scratch has one counter per id). A class weighs its grams: covering it
// covers all of them, so the gains, and so the sources and their order, are those of the cover
// gram by gram.
// Repeatedly takes the document covering the most patch grams not yet covered (ties: the
// smallest document id), until all are covered or, with φ > 0, the best covers too few. A patch
// gram that only same-server documents hold (foreign) stays uncovered.
Cover greedy_cover(std::uint64_t self_server, std::span<const HeldClass> classes, std::span<const OtherHolder> others,
                   std::span<const std::uint64_t> candidate_ids, const CoverRules& rules, CoverScratch& scratch);

}  // namespace crd::quilts
