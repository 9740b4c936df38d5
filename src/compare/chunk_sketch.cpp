// Chunk sketches and the best score against a labeled set (chunk_sketch.hpp).
#include "chunk_sketch.hpp"

#include <algorithm>
#include <charconv>

#include "crd/neardup/fingerprint.hpp"

namespace crd::compare {

ChunkSketch sketch(std::string_view normalized) {
  ChunkSketch s;
  s.nilsimsa = nilsimsa(normalized);
  if (auto t = TlshDigest::of(normalized)) s.tlsh = t->hex();
  s.ssdeep = ssdeep_digest(normalized);
  return s;
}

std::uint64_t held_bytes(const ChunkSketch& s) { return sizeof(ChunkSketch) + heap_bytes(s.tlsh) + heap_bytes(s.ssdeep); }

namespace {

// ssdeep's eliminate_sequences: a run of more than 3 equal characters is cut to 3.
std::string reduce_runs(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (i < 3 || s[i] != s[i - 1] || s[i] != s[i - 2] || s[i] != s[i - 3]) out += s[i];
  return out;
}

}  // namespace

// fuzzy_compare's highest score (equal signatures).
constexpr int kSsdeepMax = 100;

std::vector<std::uint64_t> ssdeep_keys(const std::string& signature) {
  std::vector<std::uint64_t> keys;
  const auto c1 = signature.find(':');
  const auto c2 = c1 == std::string::npos ? std::string::npos : signature.find(':', c1 + 1);
  unsigned long bs = 0;
  if (c2 == std::string::npos || std::from_chars(signature.data(), signature.data() + c1, bs).ec != std::errc())
    return keys;  // malformed: no candidates (fuzzy_compare would return -1 anyway)
  const std::string h1 = reduce_runs(std::string_view(signature).substr(c1 + 1, c2 - c1 - 1));
  const std::string h2 = reduce_runs(std::string_view(signature).substr(c2 + 1));
  keys.push_back(neardup::term_token("=" + std::to_string(bs) + ":" + h1 + ":" + h2));
  auto grams = [&](const std::string& h, unsigned long block) {
    const std::uint64_t at_block = neardup::mix64(block);
    for (std::size_t i = 0; i + 7 <= h.size(); ++i)
      keys.push_back(neardup::term_token(std::string_view(h).substr(i, 7)) ^ at_block);
  };
  grams(h1, bs);
  grams(h2, 2 * bs);
  return keys;
}

namespace {

// The labels' TLSH digests that parse (a label without one never gives a distance).
std::vector<TlshCode> tlsh_codes(const std::vector<ChunkSketch>& labels) {
  std::vector<TlshCode> codes;
  for (const auto& l : labels)
    if (auto c = TlshCode::parse(l.tlsh)) codes.push_back(*c);
  return codes;
}

std::vector<NilsimsaDigest> nilsimsa_digests(const std::vector<ChunkSketch>& labels) {
  std::vector<NilsimsaDigest> digests;
  for (const auto& l : labels) digests.push_back(l.nilsimsa);
  return digests;
}

// Every label's ssdeep keys, each with the label's index.
std::vector<KeyedId> ssdeep_postings(const std::vector<ChunkSketch>& labels) {
  std::vector<KeyedId> pairs;
  for (std::uint32_t i = 0; i < labels.size(); ++i)
    for (const std::uint64_t key : ssdeep_keys(labels[i].ssdeep)) pairs.push_back({key, i});
  return pairs;
}

}  // namespace

LabelSketches::LabelSketches(const std::vector<ChunkSketch>& labels)
    : nilsimsa_(nilsimsa_digests(labels)),
      tlsh_(tlsh_codes(labels)),
      ssdeep_grams_(ssdeep_postings(labels)),
      stamp_(labels.size(), 0) {
  for (const auto& l : labels) ssdeep_.push_back(l.ssdeep);
}

std::uint64_t LabelSketches::memory_bytes() const {
  std::uint64_t bytes = nilsimsa_.memory_bytes() + tlsh_.memory_bytes() + ssdeep_.capacity() * sizeof(std::string) +
                        stamp_.capacity() * sizeof(std::uint64_t) + ssdeep_grams_.memory_bytes();
  for (const std::string& s : ssdeep_) bytes += heap_bytes(s);
  return bytes;
}

BestScores LabelSketches::best(const ChunkSketch& chunk) {
  BestScores b;
  b.nilsimsa = nilsimsa_.best(chunk.nilsimsa);
  if (auto t = TlshCode::parse(chunk.tlsh)) b.tlsh = tlsh_.min_distance(*t, kNoTlsh);
  // Each candidate once: a label is compared when first met in this query (stamp_ marks it). The
  // first key is the whole signature's (an equal one scores 100), and no score exceeds 100: once
  // met, no later candidate can raise the best.
  ++query_;
  for (const std::uint64_t key : ssdeep_keys(chunk.ssdeep)) {
    for (const std::uint32_t i : ssdeep_grams_.find(key)) {
      if (stamp_[i] == query_) continue;
      stamp_[i] = query_;
      b.ssdeep = std::max(b.ssdeep, ssdeep_compare(chunk.ssdeep, ssdeep_[i]));
      if (b.ssdeep >= kSsdeepMax) return b;
    }
  }
  return b;
}

}  // namespace crd::compare
