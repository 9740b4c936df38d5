// TLSH fields, distance and the exact-minimum index (tlsh_index.hpp).
#include "tlsh_index.hpp"

#include <algorithm>
#include <bit>
#include <climits>

#include "popcount_kernels.hpp"

namespace crd::compare {
namespace {

constexpr std::size_t kHexDigits = 70;                     // 1 checksum + 1 lvalue + 1 ratios + 32 body bytes
constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;  // the low bit of every two-bit code

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// TLSH's mod_diff: the distance between x and y on a circle of `range` values.
constexpr int circular(int x, int y, int range) {
  const int d = x > y ? x - y : y - x;
  return std::min(d, range - d);
}

// Cost of a length difference (circular over 256): 0 or 1 as is, more counts 12 a step.
constexpr int length_cost(int d) { return d <= 1 ? d : d * 12; }
// Cost of a quartile-ratio difference (circular over 16): 0 or 1 as is, more counts 12 a step
// after the first.
constexpr int ratio_cost(int d) { return d <= 1 ? d : (d - 1) * 12; }

// Both as tables indexed by (x − y) modulo the range, so a header distance is three loads.
struct CostTables {
  std::array<int, 256> length{};
  std::array<int, 16> ratio{};
  constexpr CostTables() {
    for (int i = 0; i < 256; ++i) length[i] = length_cost(circular(i, 0, 256));
    for (int i = 0; i < 16; ++i) ratio[i] = ratio_cost(circular(i, 0, 16));
  }
};
constexpr CostTables kCost;

// One word of 32 bucket codes. For codes a, b: x = a ^ b; a nonzero pair costs 1, a difference in
// the high bit only (|a − b| = 2) one more, and both bits differing while a's two bits are equal
// (0 against 3) five more; both differing with a's bits unequal is 1 against 2, cost 1. Where both
// bits differ b is a's complement, so either side's mask (a_mixed) serves.
inline int body_word(std::uint64_t a, std::uint64_t b, std::uint64_t a_mixed) {
  const std::uint64_t x = a ^ b;
  const std::uint64_t hi = (x >> 1) & kLowBits, lo = x & kLowBits;
  return std::popcount(hi | lo) + std::popcount(hi & ~lo) + 5 * std::popcount(hi & lo & ~a_mixed);
}

inline std::uint64_t mixed(std::uint64_t w) { return (w ^ (w >> 1)) & kLowBits; }

// The query as the kernels take it: body words, their masks, checksum.
using Query = std::array<std::uint64_t, 9>;
Query query_words(const TlshCode& q) {
  Query w{};
  for (std::size_t k = 0; k < 4; ++k) w[k] = q.body[k], w[4 + k] = mixed(q.body[k]);
  w[8] = q.checksum;
  return w;
}

inline int fewest_loop(const std::uint64_t* q, const std::uint64_t* planes, std::size_t stride, std::size_t begin,
                       std::size_t end) {
  const std::uint64_t *w0 = planes, *w1 = planes + stride, *w2 = planes + 2 * stride, *w3 = planes + 3 * stride,
                      *cs = planes + 4 * stride;
  int fewest = INT_MAX;
  for (std::size_t i = begin; i < end; ++i) {
    const int d = (cs[i] != q[8] ? 1 : 0) + body_word(q[0], w0[i], q[4]) + body_word(q[1], w1[i], q[5]) +
                  body_word(q[2], w2[i], q[6]) + body_word(q[3], w3[i], q[7]);
    fewest = std::min(fewest, d);
  }
  return fewest;
}

// The index's inner loop (popcount_kernels.hpp).
CRD_POPCNT_CLONES
int fewest_popcnt(const std::uint64_t* q, const std::uint64_t* planes, std::size_t stride, std::size_t begin,
                  std::size_t end) {
  return fewest_loop(q, planes, stride, begin, end);
}
// Not cloned, so its address is a plain function's (GCC 12 warns on taking a clone's).
int fewest_portable(const std::uint64_t* q, const std::uint64_t* planes, std::size_t stride, std::size_t begin,
                    std::size_t end) {
  return fewest_popcnt(q, planes, stride, begin, end);
}
#if CRD_HAVE_VECTOR_POPCOUNT
CRD_VECTOR_POPCOUNT_KERNEL
int fewest_vector(const std::uint64_t* q, const std::uint64_t* planes, std::size_t stride, std::size_t begin,
                  std::size_t end) {
  return fewest_loop(q, planes, stride, begin, end);
}
#endif

std::uint32_t header_key(const TlshCode& c) {
  return (std::uint32_t{c.lvalue} << 8) | (std::uint32_t{c.q1} << 4) | c.q2;
}

}  // namespace

std::optional<TlshCode> TlshCode::parse(std::string_view hex) {
  if (hex.size() < kHexDigits) return std::nullopt;
  std::array<std::uint8_t, kHexDigits / 2> bytes{};
  for (std::size_t i = 0; i < kHexDigits; i += 2) {
    const int h = hex_value(hex[i]), l = hex_value(hex[i + 1]);
    if (h < 0 || l < 0) return std::nullopt;
    bytes[i / 2] = static_cast<std::uint8_t>(h << 4 | l);
  }
  // The header bytes are written nibble-swapped: the first digit is the value's low nibble. The
  // ratio byte's low nibble is Q1 (libtlsh's bit-field order on GCC's little-endian targets).
  const auto swapped = [](std::uint8_t b) { return static_cast<std::uint8_t>(b >> 4 | b << 4); };
  TlshCode c;
  c.checksum = swapped(bytes[0]);
  c.lvalue = swapped(bytes[1]);
  c.q1 = bytes[2] >> 4;
  c.q2 = bytes[2] & 15;
  for (std::size_t w = 0; w < 4; ++w)
    for (std::size_t k = 0; k < 8; ++k) c.body[w] |= std::uint64_t{bytes[3 + 8 * w + k]} << (8 * k);
  return c;
}

int tlsh_header_distance(const TlshCode& a, const TlshCode& b) {
  return kCost.length[static_cast<std::uint8_t>(a.lvalue - b.lvalue)] + kCost.ratio[(a.q1 - b.q1) & 15] +
         kCost.ratio[(a.q2 - b.q2) & 15];
}

int tlsh_body_distance(const TlshCode& a, const TlshCode& b) {
  int d = 0;
  for (std::size_t k = 0; k < 4; ++k) d += body_word(a.body[k], b.body[k], mixed(a.body[k]));
  return d;
}

int tlsh_distance(const TlshCode& a, const TlshCode& b) {
  return tlsh_header_distance(a, b) + (a.checksum != b.checksum ? 1 : 0) + tlsh_body_distance(a, b);
}

TlshIndex::TlshIndex(const std::vector<TlshCode>& labels, bool vector_kernel)
    : planes_(5 * labels.size()), size_(labels.size()), fewest_(&fewest_portable) {
  std::vector<std::uint32_t> order(labels.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return header_key(labels[a]) < header_key(labels[b]); });
  for (std::uint32_t at = 0; at < order.size(); ++at) {
    const TlshCode& c = labels[order[at]];
    if (groups_.empty() || header_key(groups_.back().header) != header_key(c)) {
      TlshCode header;
      header.lvalue = c.lvalue, header.q1 = c.q1, header.q2 = c.q2;
      groups_.push_back({header, at, at});
    }
    for (std::size_t k = 0; k < 4; ++k) planes_[k * size_ + at] = c.body[k];
    planes_[4 * size_ + at] = c.checksum;
    ++groups_.back().end;
  }
  scratch_.reserve(groups_.size());
#if CRD_HAVE_VECTOR_POPCOUNT
  if (vector_kernel && has_vector_popcount()) fewest_ = &fewest_vector;
#else
  (void)vector_kernel;
#endif
}

int TlshIndex::min_distance(const TlshCode& q, int none) {
  if (groups_.empty()) return none;
  const Query words = query_words(q);
  const auto best_in = [&](const Group& g, int header, int best) {
    return std::min(best, header + fewest_(words.data(), planes_.data(), size_, g.begin, g.end));
  };
  scratch_.clear();
  std::size_t cheapest = 0;
  for (std::uint32_t g = 0; g < groups_.size(); ++g) {
    scratch_.push_back({tlsh_header_distance(q, groups_[g].header), g});
    if (scratch_.back().bound < scratch_[cheapest].bound) cheapest = g;
  }
  // The cheapest group gives a first best; only groups whose header distance is below it can
  // hold a closer label, and they are visited cheapest first so the best falls fast.
  const Visit first = scratch_[cheapest];
  int best = best_in(groups_[first.group], first.bound, INT_MAX);
  std::erase_if(scratch_, [&](const Visit& v) { return v.bound >= best || v.group == first.group; });
  std::sort(scratch_.begin(), scratch_.end(), [](const Visit& a, const Visit& b) { return a.bound < b.bound; });
  for (const Visit& v : scratch_) {
    if (v.bound >= best) break;  // every later group's header distance alone is ≥ best
    best = best_in(groups_[v.group], v.bound, best);
  }
  return best;
}

std::uint64_t TlshIndex::memory_bytes() const {
  return planes_.capacity() * sizeof(std::uint64_t) + groups_.capacity() * sizeof(Group) +
         scratch_.capacity() * sizeof(Visit);
}

}  // namespace crd::compare
