// ssdeep's match score without libfuzzy's fuzzy_compare, which parses both signatures (sscanf, run
// reduction) on every call: ~19 % of compare-hashing's cycles when a chunk met each candidate label.
// Here each signature is parsed once, the chunk's two pieces become position bitmaps once per
// query, and a pair is scored with word-parallel bit operations (pieces are at most 64 characters).
// The score is fuzzy_compare's (libfuzzy 2.14): the same pairing of block sizes, the same 7-character
// common-substring gate, the same integer scaling and small-block cap. test_ssdeep_score checks it
// against fuzzy_compare on real and random pairs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace crd::compare {

// "bs:h1:h2" as fuzzy_compare reads it: each piece with runs of more than 3 equal characters cut to
// 3, h2 ending at a ',' if any. nullopt for anything fuzzy_compare might read differently (no
// leading digits, a piece over 64 characters after the cut, a block size over ULONG_MAX / 2): the
// caller then asks libfuzzy itself.
struct SsdeepSignature {
  static constexpr std::size_t kMaxPiece = 64;  // libfuzzy's SPAMSUM_LENGTH
  unsigned long block = 0;
  std::array<std::uint8_t, 2> length{};
  std::array<std::array<char, kMaxPiece>, 2> piece{};

  static std::optional<SsdeepSignature> parse(std::string_view signature);
  std::string_view view(int p) const { return {piece[p].data(), length[p]}; }
};

// The chunk's side of many comparisons.
class SsdeepQuery {
 public:
  explicit SsdeepQuery(const SsdeepSignature& chunk);
  // fuzzy_compare(chunk, label): 0 … 100.
  int score(const SsdeepSignature& label) const;

 private:
  using Positions = std::array<std::uint64_t, 256>;  // bit i of [c]: piece[i] == c
  // fuzzy_compare's score_strings on this query's piece p and `other`, at block size `block`.
  int score_piece(int p, std::string_view other, unsigned long block) const;

  SsdeepSignature chunk_;
  std::array<Positions, 2> positions_{};
};

}  // namespace crd::compare
