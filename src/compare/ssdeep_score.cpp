// ssdeep's score on parsed signatures (ssdeep_score.hpp).
#include "ssdeep_score.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <climits>

namespace crd::compare {
namespace {

constexpr std::size_t kWindow = 7;            // libfuzzy's ROLLING_WINDOW: the common run needed
constexpr unsigned long kMinBlock = 3;        // libfuzzy's MIN_BLOCKSIZE
constexpr unsigned long kUncappedBlock = 45;  // (99 + ROLLING_WINDOW) / ROLLING_WINDOW * MIN_BLOCKSIZE

// Copies s into out with runs of more than 3 equal characters cut to 3; false if over kMaxPiece.
bool reduce(std::string_view s, std::array<char, SsdeepSignature::kMaxPiece>& out, std::uint8_t& length) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i >= 3 && s[i] == s[i - 1] && s[i] == s[i - 2] && s[i] == s[i - 3]) continue;
    if (n == out.size()) return false;
    out[n++] = s[i];
  }
  length = static_cast<std::uint8_t>(n);
  return true;
}

}  // namespace

std::optional<SsdeepSignature> SsdeepSignature::parse(std::string_view signature) {
  const auto c1 = signature.find(':');
  if (c1 == std::string_view::npos || c1 == 0) return std::nullopt;
  SsdeepSignature s;
  const auto [end, ec] = std::from_chars(signature.data(), signature.data() + c1, s.block);
  if (ec != std::errc() || end != signature.data() + c1 || s.block > ULONG_MAX / 2) return std::nullopt;
  const auto c2 = signature.find(':', c1 + 1);
  if (c2 == std::string_view::npos) return std::nullopt;  // one piece: fuzzy_compare says malformed
  std::string_view h2 = signature.substr(c2 + 1);
  h2 = h2.substr(0, h2.find(','));  // a file name may follow the comma
  if (!reduce(signature.substr(c1 + 1, c2 - c1 - 1), s.piece[0], s.length[0]) || !reduce(h2, s.piece[1], s.length[1]))
    return std::nullopt;
  return s;
}

SsdeepQuery::SsdeepQuery(const SsdeepSignature& chunk) : chunk_(chunk) {
  for (int p = 0; p < 2; ++p)
    for (std::size_t i = 0; i < chunk.length[p]; ++i)
      positions_[p][static_cast<unsigned char>(chunk.piece[p][i])] |= std::uint64_t{1} << i;
}

int SsdeepQuery::score_piece(int p, std::string_view other, unsigned long block) const {
  const std::size_t n = chunk_.length[p], m = other.size();
  if (n < kWindow || m < kWindow) return 0;
  const Positions& at = positions_[p];
  auto bits = [&](char c) { return at[static_cast<unsigned char>(c)]; };
  // The gate: some 7 characters of `other` occur at once in the piece (bit i survives the shifts
  // iff piece[i + k] == other[j + k] for k < 7).
  bool common = false;
  for (std::size_t j = 0; j + kWindow <= m && !common; ++j) {
    std::uint64_t run = bits(other[j]);
    for (std::size_t k = 1; k < kWindow && run != 0; ++k) run &= bits(other[j + k]) >> k;
    common = run != 0;
  }
  if (!common) return 0;
  // libfuzzy's edit distance counts an insertion or a deletion as 1 and a substitution as 2, so it
  // is n + m − 2·LCS; the LCS by the bit-vector recurrence (a zero bit of v marks a match used).
  std::uint64_t v = ~std::uint64_t{0};
  for (const char c : other) {
    const std::uint64_t u = v & bits(c);
    v = (v + u) | (v - u);
  }
  const std::uint64_t piece_mask = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  const auto lcs = static_cast<std::uint32_t>(std::popcount(~v & piece_mask));
  const auto distance = static_cast<std::uint32_t>(n + m) - 2 * lcs;
  // fuzzy_compare's integer steps, in its order (each division truncates).
  std::uint32_t score = distance * 64 / static_cast<std::uint32_t>(n + m);
  score = 100 - 100 * score / 64;
  if (block >= kUncappedBlock) return static_cast<int>(score);
  const unsigned long cap = block / kMinBlock * std::min(n, m);
  return static_cast<int>(std::min<unsigned long>(score, cap));
}

int SsdeepQuery::score(const SsdeepSignature& label) const {
  const unsigned long a = chunk_.block, b = label.block;
  if (a == b) {
    if (chunk_.view(0) == label.view(0) && chunk_.view(1) == label.view(1)) return 100;
    return std::max(score_piece(0, label.view(0), a), score_piece(1, label.view(1), 2 * a));
  }
  if (2 * a == b) return score_piece(1, label.view(0), b);
  if (a == 2 * b) return score_piece(0, label.view(1), a);
  return 0;  // block sizes too far apart to compare
}

}  // namespace crd::compare
