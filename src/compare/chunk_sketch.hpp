// The three LSH sketches of one chunk, and a labeled set's sketches with the best score any label
// gives a chunk under each function. A chunk's best scores are all the sweep needs: under a
// threshold t it matches L iff its best score passes t.
#pragma once

#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "crd/base/heap_bytes.hpp"
#include "fuzzy_hashes.hpp"
#include "nilsimsa.hpp"
#include "nilsimsa_set.hpp"
#include "posting_table.hpp"
#include "ssdeep_score.hpp"
#include "tlsh_index.hpp"

namespace crd::compare {

struct ChunkSketch {
  NilsimsaDigest nilsimsa{};
  std::string tlsh;    // TLSH hex, "" when TLSH gives none
  std::string ssdeep;  // ssdeep signature
  static constexpr auto fields() {
    return std::tuple(&ChunkSketch::nilsimsa, &ChunkSketch::tlsh, &ChunkSketch::ssdeep);
  }
};

ChunkSketch sketch(std::string_view normalized);

// Bytes a sketch holds (for --memory).
std::uint64_t held_bytes(const ChunkSketch& s);

// No TLSH digest on one side: no distance, never a match.
inline constexpr int kNoTlsh = INT_MAX;

struct BestScores {
  int nilsimsa = -129;  // highest nilsimsa_compare against any label (−129: no label)
  int tlsh = kNoTlsh;   // lowest TLSH distance to any label
  int ssdeep = 0;       // highest ssdeep score against any label
};

class LabelSketches {
 public:
  explicit LabelSketches(const std::vector<ChunkSketch>& labels);
  std::size_t size() const { return nilsimsa_.size(); }
  // Not thread-safe (it marks the candidates it has compared): one object per thread.
  BestScores best(const ChunkSketch& chunk);
  // Bytes held (for --memory): the digests, the ssdeep index's keys and lists, the stamps.
  std::uint64_t memory_bytes() const;

 private:
  NilsimsaSet nilsimsa_;
  TlshIndex tlsh_;                                      // exact smallest distance without comparing with every label
  std::vector<std::optional<SsdeepSignature>> ssdeep_;  // by label, parsed once
  // ssdeep scores two signatures above 0 only if they share, at one block size, a run of 7
  // characters (after its own reduction of longer repeats), or are the same signature: labels are
  // indexed by (block size, 7-gram) and by reduced signature, and scored (SsdeepQuery, as
  // fuzzy_compare) on those candidates only. test_chunk_sketch checks it against comparing with every label.
  PostingTable ssdeep_grams_;
  std::vector<std::uint64_t> stamp_;  // by label: the last query that compared it
  std::uint64_t query_ = 0;
};

// ssdeep's candidate keys of a parsed signature (runs already cut as ssdeep does), as 64-bit
// hashes: one of (block size, gram) for every 7-gram of h1 at bs and of h2 at 2·bs, and one of
// "=" + the reduced signature. Two keys that collide only add a candidate (scored 0), never lose one.
std::vector<std::uint64_t> ssdeep_keys(const SsdeepSignature& signature);

}  // namespace crd::compare
