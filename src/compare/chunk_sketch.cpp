// Chunk sketches and the best score against a labeled set (chunk_sketch.hpp).
#include "chunk_sketch.hpp"

#include <algorithm>

#include "crd/text/fingerprint.hpp"

namespace crd::compare {

ChunkSketch sketch(std::string_view normalized) {
  ChunkSketch s;
  s.nilsimsa = nilsimsa(normalized);
  if (auto t = TlshDigest::of(normalized)) s.tlsh = t->hex();
  s.ssdeep = ssdeep_digest(normalized);
  return s;
}

std::uint64_t held_bytes(const ChunkSketch& s) {
  return sizeof(ChunkSketch) + heap_bytes(s.tlsh) + heap_bytes(s.ssdeep);
}

// fuzzy_compare's highest score (equal signatures).
constexpr int kSsdeepMax = 100;

std::vector<std::uint64_t> ssdeep_keys(const SsdeepSignature& signature) {
  std::vector<std::uint64_t> keys;
  const std::string_view h1 = signature.view(0), h2 = signature.view(1);
  std::string whole = "=" + std::to_string(signature.block) + ":";
  whole.append(h1).append(":").append(h2);
  keys.push_back(text::term_token(whole));
  auto grams = [&](std::string_view h, unsigned long block) {
    const std::uint64_t at_block = text::mix64(block);
    for (std::size_t i = 0; i + 7 <= h.size(); ++i) keys.push_back(text::term_token(h.substr(i, 7)) ^ at_block);
  };
  grams(h1, signature.block);
  grams(h2, 2 * signature.block);
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

std::vector<std::optional<SsdeepSignature>> ssdeep_signatures(const std::vector<ChunkSketch>& labels) {
  std::vector<std::optional<SsdeepSignature>> parsed;
  parsed.reserve(labels.size());
  for (const auto& l : labels) parsed.push_back(SsdeepSignature::parse(l.ssdeep));
  return parsed;
}

// Every parsed label signature's keys, each with the label's index.
std::vector<KeyedId> ssdeep_postings(const std::vector<std::optional<SsdeepSignature>>& signatures) {
  std::vector<KeyedId> pairs;
  for (std::uint32_t i = 0; i < signatures.size(); ++i)
    if (signatures[i])
      for (const std::uint64_t key : ssdeep_keys(*signatures[i])) pairs.push_back({key, i});
  return pairs;
}

}  // namespace

LabelSketches::LabelSketches(const std::vector<ChunkSketch>& labels)
    : nilsimsa_(nilsimsa_digests(labels)),
      tlsh_(tlsh_codes(labels)),
      ssdeep_(ssdeep_signatures(labels)),
      ssdeep_grams_(ssdeep_postings(ssdeep_)),
      stamp_(labels.size(), 0) {}

std::uint64_t LabelSketches::memory_bytes() const {
  std::uint64_t bytes = nilsimsa_.memory_bytes() + tlsh_.memory_bytes() +
                        ssdeep_.capacity() * sizeof(std::optional<SsdeepSignature>) +
                        stamp_.capacity() * sizeof(std::uint64_t) + ssdeep_grams_.memory_bytes();
  return bytes;
}

BestScores LabelSketches::best(const ChunkSketch& chunk) {
  BestScores b;
  b.nilsimsa = nilsimsa_.best(chunk.nilsimsa);
  if (auto t = TlshCode::parse(chunk.tlsh)) b.tlsh = tlsh_.min_distance(*t, kNoTlsh);
  // Each candidate once: a label is compared when first met in this query (stamp_ marks it). The
  // first key is the whole signature's (an equal one scores 100), and no score exceeds 100: once
  // met, no later candidate can raise the best.
  // A signature that does not parse has no keys: fuzzy_compare gives it −1 or (for a form it reads
  // more loosely, never one fuzzy_hash_buf writes) no 7-gram run in common with a label's.
  const auto signature = SsdeepSignature::parse(chunk.ssdeep);
  if (!signature) return b;
  const SsdeepQuery query(*signature);
  ++query_;
  for (const std::uint64_t key : ssdeep_keys(*signature)) {
    for (const std::uint32_t i : ssdeep_grams_.find(key)) {
      if (stamp_[i] == query_) continue;
      stamp_[i] = query_;
      b.ssdeep = std::max(b.ssdeep, query.score(*ssdeep_[i]));
      if (b.ssdeep >= kSsdeepMax) return b;
    }
  }
  return b;
}

}  // namespace crd::compare
