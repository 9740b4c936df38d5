// Boundary finder: memchr to each '<', a one-byte table to reject most tags at once.
#include "boundary_finder.hpp"

#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#define CRD_HAVE_AVX2_FINDER 1
#include <immintrin.h>
#endif

#include "crd/base/error.hpp"

namespace crd::chunk::detail {

namespace {

constexpr std::string_view kScript = "script";
constexpr std::string_view kStyle = "style";

const char* find_byte(const char* from, const char* end, char c) noexcept {
  if (from >= end) return end;
  const void* hit = std::memchr(from, c, static_cast<std::size_t>(end - from));
  return hit != nullptr ? static_cast<const char*>(hit) : end;
}

// Candidate = a '<' whose next byte may start a tag we care about (first[byte] != 0). Most '<'
// in real pages open tags we ignore (a, span, /p, …), so filtering them here avoids the
// per-'<' cost of the full checks.
using CandidateFn = const char* (*)(const char*, const char*, const std::uint8_t*);

const char* find_candidate_portable(const char* p, const char* end, const std::uint8_t* first) {
  while (true) {
    p = find_byte(p, end, '<');
    if (end - p < 2) return end;  // a lone '<' at the very end opens no tag
    if (first[static_cast<unsigned char>(p[1])] != 0) return p;
    ++p;
  }
}

#if CRD_HAVE_AVX2_FINDER
// One compare per 32 bytes; memchr instead pays a call per '<' (one every ~24 bytes of HTML).
__attribute__((target("avx2"))) const char* find_candidate_avx2(const char* p, const char* end,
                                                                 const std::uint8_t* first) {
  const __m256i lt = _mm256_set1_epi8('<');
  while (end - p > 32) {  // > 32: the byte after a '<' at p[31] must be readable
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lt)));
    while (mask != 0) {
      const int bit = __builtin_ctz(mask);
      if (first[static_cast<unsigned char>(p[bit + 1])] != 0) return p + bit;
      mask &= mask - 1;
    }
    p += 32;
  }
  return find_candidate_portable(p, end, first);
}
#endif

const char* find_candidate(const char* p, const char* end, const std::uint8_t* first) {
  static const CandidateFn kFind = [] {
#if CRD_HAVE_AVX2_FINDER
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return &find_candidate_avx2;
#endif
    return &find_candidate_portable;
  }();
  return kFind(p, end, first);
}

}  // namespace

BoundaryFinder::BoundaryFinder(const std::vector<std::string>& tags, bool prefix) : prefix_(prefix) {
  for (const std::string& tag : tags) {
    std::string name;
    for (char c : tag) name += ascii_lower(c);
    // A name that could never follow '<' as a tag (or that swallows the delimiter) is a usage
    // mistake, not something to silently never match.
    const bool ok = !name.empty() && name.find_first_of(" \t\n\f\r/>!<") == std::string::npos;
    if (!ok) throw UsageError("chunker: bad boundary tag name '" + tag + "'");
    const char c = name[0];
    first_[static_cast<unsigned char>(c)] |= kTagStart;
    if (c >= 'a' && c <= 'z') first_[static_cast<unsigned char>(c - 'a' + 'A')] |= kTagStart;
    tags_.push_back(std::move(name));
  }
  first_['s'] |= kRawTextStart;
  first_['S'] |= kRawTextStart;
  first_['!'] |= kBang;
}

bool BoundaryFinder::is_boundary_tag(const char* p, const char* end) const {
  for (const std::string& tag : tags_) {
    if (prefix_ ? name_prefix_at(p, end, tag) : tag_name_at(p, end, tag)) return true;
  }
  return false;
}

const char* BoundaryFinder::skip_comment(const char* lt, const char* end) {
  // "-->" may reuse the dashes of "<!--" (so "<!-->" and "<!--->" are empty comments, as in
  // HTML5); an unterminated comment runs to the end of the page.
  const char* p = lt + 4;
  while (true) {
    p = find_byte(p, end, '>');
    if (p == end) return end;
    if (p[-1] == '-' && p[-2] == '-') return p + 1;
    ++p;
  }
}

const char* BoundaryFinder::skip_raw_text(const char* name, std::size_t len, const char* after,
                                          const char* end) {
  const std::string_view tag(name, len);
  for (const char* p = after;; ++p) {
    p = find_byte(p, end, '<');
    if (p == end) return end;  // unterminated: raw text to the end of the page
    if (p + 1 < end && p[1] == '/' && tag_name_at(p + 2, end, tag)) return p + 2 + len;
  }
}

std::size_t BoundaryFinder::next(std::string_view page, std::size_t& pos) const {
  const char* const begin = page.data();
  const char* const end = begin + page.size();
  const char* p = begin + pos;
  while (true) {
    p = find_candidate(p, end, first_.data());
    if (p == end) {
      pos = page.size();
      return page.size();
    }
    const char* name = p + 1;
    const std::uint8_t kind = first_[static_cast<unsigned char>(*name)];
    if ((kind & kBang) != 0 && end - name >= 3 && name[1] == '-' && name[2] == '-') {
      p = skip_comment(p, end);
      continue;
    }
    const bool boundary = (kind & kTagStart) != 0 && is_boundary_tag(name, end);
    const char* resume = name;
    if ((kind & kRawTextStart) != 0) {
      if (tag_name_at(name, end, kScript)) {
        resume = skip_raw_text(kScript.data(), kScript.size(), name + kScript.size(), end);
      } else if (tag_name_at(name, end, kStyle)) {
        resume = skip_raw_text(kStyle.data(), kStyle.size(), name + kStyle.size(), end);
      }
    }
    if (boundary) {
      pos = static_cast<std::size_t>(resume - begin);
      return static_cast<std::size_t>(p - begin);
    }
    p = resume;
  }
}

}  // namespace crd::chunk::detail
