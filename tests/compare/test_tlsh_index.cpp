// TlshCode and TlshIndex against libtlsh (through TlshDigest): the distance on parsed fields must
// equal Tlsh::totalDiff, its header part must never exceed it, and the index must return exactly
// the smallest distance a scan of every label finds — on digests of generated text, of the
// documentation corpus when present, of random hex, and on adversarial label sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <random>

#include "chunk_sketch.hpp"
#include "corpus_chunks.hpp"
#include "tlsh_index.hpp"

namespace crd::compare {
namespace {

// libtlsh's distance between two hex digests.
int libtlsh_distance(const std::string& a, const std::string& b) {
  return TlshDigest::parse(a)->distance(*TlshDigest::parse(b));
}

// Generated documents of 300 B to 40 kB (so the length term varies), each with a few edited
// copies (near neighbours); their TLSH digests.
std::vector<std::string> generated_digests(std::size_t documents, std::uint32_t seed) {
  std::mt19937 rng(seed);
  static const char* words[] = {"the",   "crawl", "page",  "copy",   "chunk", "label", "hash",  "quilt",
                                "shard", "rank",  "owner", "sketch", "index", "bound", "group", "query",
                                "near",  "far",   "text",  "html",   "body",  "table", "row",   "cell"};
  std::vector<std::string> out;
  for (std::size_t d = 0; d < documents; ++d) {
    std::string text;
    const std::size_t size =
        300 + static_cast<std::size_t>(std::exp(std::uniform_real_distribution<>(0, 4.9)(rng)) * 300);
    // A per-document word bias, so the quartile ratios differ between documents.
    const std::size_t bias = rng() % 24;
    while (text.size() < size) {
      const std::size_t w = rng() % 3 == 0 ? bias : rng() % 24;
      text += words[w];
      text += rng() % 9 == 0 ? ".\n" : " ";
      if (rng() % 5 == 0) text += std::to_string(rng() % 1000) + " ";
    }
    for (int edit = 0; edit < 3; ++edit) {
      if (auto t = TlshDigest::of(text)) out.push_back(t->hex());
      for (int k = 0; k < 1 + edit * 5; ++k) text[rng() % text.size()] = static_cast<char>('a' + rng() % 26);
    }
  }
  return out;
}

// TLSH digests of the documentation corpus's chunks (those TLSH digests), from two of its sites.
std::vector<std::string> corpus_digests(std::size_t max_files) {
  std::vector<std::string> out;
  for (const char* site : {"sphinx-doc", "debian-reference-en"})
    for (const auto& c : corpus_chunks(site, max_files))
      if (auto t = TlshDigest::of(c)) out.push_back(t->hex());
  return out;
}

// Random 70-digit hex strings: libtlsh parses any, so every header value and wrap-around occurs.
std::vector<std::string> random_digests(std::size_t n, std::uint32_t seed, int lvalue_spread, int ratio_spread) {
  std::mt19937 rng(seed);
  static const char* hex = "0123456789ABCDEF";
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::string s(70, '0');
    for (char& c : s) c = hex[rng() % 16];
    // Header digits: 2–3 the length (low nibble first), 4–5 the ratios; narrowed around 0 so
    // the circular differences wrap.
    const int l = static_cast<int>(rng() % static_cast<unsigned>(2 * lvalue_spread + 1)) - lvalue_spread;
    const auto lv = static_cast<unsigned>(l) & 255u;
    s[2] = hex[lv & 15], s[3] = hex[lv >> 4];
    for (int k : {4, 5}) {
      const int q = static_cast<int>(rng() % static_cast<unsigned>(2 * ratio_spread + 1)) - ratio_spread;
      s[static_cast<std::size_t>(k)] = hex[static_cast<unsigned>(q) & 15u];
    }
    out.push_back(s);
  }
  return out;
}

std::vector<TlshCode> parse_all(const std::vector<std::string>& hex) {
  std::vector<TlshCode> out;
  for (const auto& h : hex) out.push_back(*TlshCode::parse(h));
  return out;
}

// Every pair: equal to libtlsh, header part ≤ it. Returns how many pairs had a header term.
std::size_t expect_distances_equal(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t with_header = 0;
  for (const auto& x : a)
    for (const auto& y : b) {
      const TlshCode cx = *TlshCode::parse(x), cy = *TlshCode::parse(y);
      const int want = libtlsh_distance(x, y);
      EXPECT_EQ(tlsh_distance(cx, cy), want) << x << " " << y;
      EXPECT_LE(tlsh_header_distance(cx, cy), want) << x << " " << y;
      EXPECT_EQ(tlsh_header_distance(cx, cy), tlsh_header_distance(cy, cx));
      with_header += tlsh_header_distance(cx, cy) > 0;
      if (::testing::Test::HasFailure()) return with_header;
    }
  return with_header;
}

int scan_min(const std::vector<TlshCode>& labels, const TlshCode& q) {
  int best = INT_MAX;
  for (const auto& l : labels) best = std::min(best, tlsh_distance(q, l));
  return best;
}

// The index (both kernels) against the scan for every query.
void expect_index_equals_scan(const std::vector<TlshCode>& labels, const std::vector<TlshCode>& queries) {
  TlshIndex index(labels), portable(labels, false);  // the vector kernel where the CPU has it, and not
  ASSERT_EQ(index.size(), labels.size());
  for (const auto& q : queries) {
    const int want = scan_min(labels, q);
    ASSERT_EQ(index.min_distance(q, INT_MAX), want);
    ASSERT_EQ(portable.min_distance(q, INT_MAX), want);
  }
}

TEST(TlshCode, DistanceEqualsLibtlshOnGeneratedText) {
  const auto digests = generated_digests(60, 1);
  ASSERT_GT(digests.size(), 150u);
  EXPECT_GT(expect_distances_equal(digests, digests), digests.size() * digests.size() / 2);
}

TEST(TlshCode, DistanceEqualsLibtlshOnRandomDigests) {
  // Wide headers (far lengths, every ratio) and narrow ones around the wrap-around at 0.
  const auto wide = random_digests(150, 2, 127, 8);
  const auto narrow = random_digests(150, 3, 2, 2);
  expect_distances_equal(wide, wide);
  expect_distances_equal(narrow, narrow);
  expect_distances_equal(wide, narrow);
}

TEST(TlshCode, DistanceEqualsLibtlshOnTheCorpus) {
  auto digests = corpus_digests(30);
  if (digests.empty()) GTEST_SKIP() << "documentation corpus absent (scripts/fetch_corpus.sh)";
  digests.resize(std::min<std::size_t>(digests.size(), 400));
  expect_distances_equal(digests, digests);
}

TEST(TlshCode, ParseAcceptsWhatLibtlshAccepts) {
  const std::string good = random_digests(1, 4, 127, 8)[0];
  std::string lower = good;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  for (const std::string& s : {good, lower, good + "ZZ", good.substr(0, 69), std::string(), good.substr(0, 69) + "g",
                               "x" + good.substr(1), std::string(70, 'F')}) {
    const bool ours = TlshCode::parse(s).has_value(), theirs = TlshDigest::parse(s).has_value();
    EXPECT_EQ(ours, theirs) << "'" << s << "'";
  }
  EXPECT_EQ(tlsh_distance(*TlshCode::parse(good), *TlshCode::parse(lower)), 0);
}

TEST(TlshIndex, MinimumEqualsScanOnGeneratedText) {
  const auto codes = parse_all(generated_digests(120, 5));
  std::vector<TlshCode> labels, queries;
  for (std::size_t i = 0; i < codes.size(); ++i) (i % 2 == 0 ? labels : queries).push_back(codes[i]);
  queries.insert(queries.end(), labels.begin(), labels.begin() + 20);  // distance 0
  expect_index_equals_scan(labels, queries);
  // Labels from one half of the documents only: queries from the other half have no near label.
  expect_index_equals_scan(std::vector<TlshCode>(codes.begin(), codes.begin() + static_cast<long>(codes.size() / 2)),
                           codes);
}

TEST(TlshIndex, MinimumEqualsScanOnTheCorpus) {
  const auto digests = corpus_digests(40);
  if (digests.empty()) GTEST_SKIP() << "documentation corpus absent (scripts/fetch_corpus.sh)";
  const auto codes = parse_all(digests);
  std::vector<TlshCode> labels, queries;
  for (std::size_t i = 0; i < codes.size(); ++i) (i % 3 == 0 ? labels : queries).push_back(codes[i]);
  expect_index_equals_scan(labels, queries);
}

TEST(TlshIndex, MinimumEqualsScanOnRandomAndAdversarialSets) {
  const auto wide = parse_all(random_digests(400, 6, 127, 8));
  const auto narrow = parse_all(random_digests(400, 7, 1, 1));
  expect_index_equals_scan(wide, narrow);
  expect_index_equals_scan(narrow, wide);
  expect_index_equals_scan(narrow, narrow);
  // All labels in one group (same length and ratios), queries in and outside it.
  auto one_group = wide;
  for (auto& c : one_group) c.lvalue = 7, c.q1 = 3, c.q2 = 12;
  expect_index_equals_scan(one_group, wide);
  expect_index_equals_scan(one_group, one_group);
  // One label; and ties: every label repeated, and labels at equal distances in different groups.
  expect_index_equals_scan({wide[0]}, wide);
  auto repeated = narrow;
  repeated.insert(repeated.end(), narrow.begin(), narrow.end());
  expect_index_equals_scan(repeated, wide);
  TlshCode q = wide[1], a = q, b = q;
  a.lvalue = static_cast<std::uint8_t>(q.lvalue + 1);  // header 1
  b.q1 = static_cast<std::uint8_t>((q.q1 + 1) & 15);   // header 1, another group
  TlshIndex ties({a, b});
  EXPECT_EQ(ties.min_distance(q, INT_MAX), 1);
  // A closer label in a group whose header is dearer than the cheapest group's.
  TlshCode near_body = q, far_body = q;
  near_body.q2 = static_cast<std::uint8_t>((q.q2 + 2) & 15);         // header 12, body equal
  far_body.body = {~q.body[0], ~q.body[1], ~q.body[2], ~q.body[3]};  // header 0, body far
  TlshIndex dear({far_body, near_body});
  EXPECT_EQ(dear.min_distance(q, INT_MAX), 12);
  EXPECT_EQ(dear.min_distance(q, INT_MAX), scan_min({far_body, near_body}, q));
}

// A copy of c with its header moved a little and a few bucket codes changed: near copies make
// the best distance small, so groups whose header distance is just below it must still be visited.
TlshCode perturbed(TlshCode c, std::mt19937& rng) {
  const auto step = [&](std::uint8_t v, int range) {
    return static_cast<std::uint8_t>((v + static_cast<int>(rng() % 5) - 2 + range) % range);
  };
  if (rng() % 2 == 0) c.lvalue = step(c.lvalue, 256);
  if (rng() % 2 == 0) c.q1 = step(c.q1, 16);
  if (rng() % 2 == 0) c.q2 = step(c.q2, 16);
  if (rng() % 4 == 0) c.checksum = static_cast<std::uint8_t>(rng());
  for (int k = static_cast<int>(rng() % 12); k > 0; --k)
    c.body[rng() % 4] ^= std::uint64_t{1 + rng() % 3} << (2 * (rng() % 32));
  return c;
}

TEST(TlshIndex, MinimumEqualsScanOnNearCopies) {
  std::mt19937 rng(9);
  const auto bases = parse_all(random_digests(30, 10, 127, 8));
  std::vector<TlshCode> labels, queries;
  for (const auto& b : bases) {
    for (int k = 0; k < 12; ++k) labels.push_back(perturbed(b, rng));
    for (int k = 0; k < 12; ++k) queries.push_back(perturbed(b, rng));
  }
  expect_index_equals_scan(labels, queries);
}

TEST(TlshIndex, VisitsAGroupWhoseHeaderDistanceIsJustBelowTheBest) {
  const TlshCode q = *TlshCode::parse(random_digests(1, 11, 127, 8)[0]);
  TlshCode same_header = q, dearer_header = q;
  // Same header, 13 bucket codes one step away: distance 13, met first.
  for (int k = 0; k < 13; ++k)
    same_header.body[static_cast<std::size_t>(k % 4)] ^= std::uint64_t{1} << (2 * (k / 4) + 16);
  dearer_header.q2 = static_cast<std::uint8_t>((q.q2 + 2) & 15);  // header 12, body equal: distance 12
  ASSERT_EQ(tlsh_distance(q, same_header), 13);
  ASSERT_EQ(tlsh_distance(q, dearer_header), 12);
  TlshIndex index({same_header, dearer_header});
  EXPECT_EQ(index.min_distance(q, INT_MAX), 12);
}

TEST(TlshIndex, NoLabelsGivesNone) {
  TlshIndex empty({});
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.min_distance(*TlshCode::parse(random_digests(1, 8, 127, 8)[0]), -7), -7);
}

TEST(LabelSketches, ChunksAndLabelsWithoutTlshGiveNoDistance) {
  std::string long_text;
  for (int i = 0; i < 80; ++i) long_text += "line " + std::to_string(i * 31 % 97) + " of a long enough chunk\n";
  const ChunkSketch with = sketch(long_text), without = sketch("too short for TLSH");
  ASSERT_FALSE(with.tlsh.empty());
  ASSERT_TRUE(without.tlsh.empty());
  LabelSketches only_without({without});
  EXPECT_EQ(only_without.best(with).tlsh, kNoTlsh);
  LabelSketches both({without, with});
  EXPECT_EQ(both.best(without).tlsh, kNoTlsh);
  EXPECT_EQ(both.best(with).tlsh, 0);
}

}  // namespace
}  // namespace crd::compare
