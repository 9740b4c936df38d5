// TLSH digests parsed into their fields, TLSH's distance computed on them, and an index that gives
// the exact smallest distance from a chunk's digest to a labeled set's without comparing it with
// every label. Written here: no Debian library offers a TLSH search structure (libtlsh only
// compares two digests), and comparing with every label through libtlsh was 88 % of
// compare-hashing's cycles.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace crd::compare {

// The fields of a TLSH 3.4 digest as Debian's libtlsh builds it (128 buckets, 1-byte checksum:
// 70 hex digits). The hex form swaps the nibbles of the three header bytes and reverses the body;
// the body's byte order does not change the distance, so it is kept as the hex gives it.
struct TlshCode {
  std::uint8_t checksum = 0;
  std::uint8_t lvalue = 0;  // log of the input's length
  std::uint8_t q1 = 0;      // quartile ratios, 0…15
  std::uint8_t q2 = 0;
  std::array<std::uint64_t, 4> body{};  // 128 two-bit bucket codes

  // Accepts exactly what libtlsh's fromTlshStr accepts: the first 70 characters hexadecimal
  // (either case); anything after them is ignored, as libtlsh ignores it. nullopt otherwise.
  static std::optional<TlshCode> parse(std::string_view hex);
};

// The header's share of the distance that does not depend on the checksum: the length term and
// the two quartile-ratio terms. A lower bound of tlsh_distance (the other terms are ≥ 0).
int tlsh_header_distance(const TlshCode& a, const TlshCode& b);
// The body's share: per bucket code |a − b|, a difference of 3 counting 6.
int tlsh_body_distance(const TlshCode& a, const TlshCode& b);
// libtlsh's Tlsh::totalDiff(other, len_diff = true) for two distinct digests (test_tlsh_index
// checks it equal on real and random pairs): header + 1 if the checksums differ + body.
int tlsh_distance(const TlshCode& a, const TlshCode& b);

// The labels' digests grouped by header (lvalue, q1, q2). A query visits the groups in increasing
// order of their header distance and stops at the first whose header distance alone is ≥ the best
// distance found: every label left has a distance at least that, so the minimum is exact.
// Not thread-safe (it keeps the query's group order in a scratch buffer): one object per thread.
class TlshIndex {
 public:
  // vector_kernel = false keeps to the portable loop (tests compare the two).
  explicit TlshIndex(const std::vector<TlshCode>& labels, bool vector_kernel = true);
  std::size_t size() const { return size_; }
  // The smallest tlsh_distance from q to any label; `none` when there are no labels.
  int min_distance(const TlshCode& q, int none);
  // Bytes held (for --memory): labels, groups and the scratch buffer.
  std::uint64_t memory_bytes() const;

  // The smallest checksum + body distance from a query (its body words, their "high bit equals
  // low bit" masks, its checksum) to the labels begin…end of the planes.
  using Kernel = int (*)(const std::uint64_t* query, const std::uint64_t* planes, std::size_t stride, std::size_t begin,
                         std::size_t end);

 private:
  struct Group {
    TlshCode header;           // lvalue, q1, q2 (checksum and body unused)
    std::uint32_t begin, end;  // its labels
  };
  struct Visit {
    int bound;
    std::uint32_t group;
  };

  // The labels sorted by header, so each group's are contiguous, as five planes of 64-bit words
  // (the four body words, then the checksum; word k of label i at planes_[k·size_ + i]) that
  // compilers vectorize a loop over.
  std::vector<std::uint64_t> planes_;
  std::size_t size_ = 0;
  std::vector<Group> groups_;
  std::vector<Visit> scratch_;
  Kernel fewest_;
};

}  // namespace crd::compare
