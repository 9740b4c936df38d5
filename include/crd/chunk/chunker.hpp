// Chunker: splits a page into chunks at boundary tags and hands out each chunk's normalized bytes.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "crd/base/enum_names.hpp"

namespace crd::chunk {

// scan: raw markup (the contract in docs/chunking.md); dom: the gumbo HTML5 tree's visible text;
// sentence: that visible text split into sentences by ICU (docs/sentences.md); winnow: winnowed
// K-word grams of the text (docs/winnow.md); winnow+scan: a page's scan chunks, then its winnowed
// grams, each marked by kGramMark (docs/winnow.md, "Deletions: the combined mode").
enum class ChunkerKind { Scan, Dom, Sentence, Winnow, WinnowScan };
constexpr std::array<EnumName<ChunkerKind>, 5> enum_names(ChunkerKind) {
  return {{{"scan", ChunkerKind::Scan},
           {"dom", ChunkerKind::Dom},
           {"sentence", ChunkerKind::Sentence},
           {"winnow", ChunkerKind::Winnow},
           {"winnow+scan", ChunkerKind::WinnowScan}}};
}

// winnow+scan emits each gram as this byte and the gram's text, so a gram and an exact chunk are
// never the same item (domain separation) and each chunk's kind is its first byte. Only the first
// chunk of a page could start with it as an exact chunk (every later one starts with '<'), and
// only in a page that starts with the control byte 0x1F; such a chunk counts as a gram.
inline constexpr char kGramMark = '\x1f';
inline bool is_marked_gram(std::string_view normalized) { return !normalized.empty() && normalized[0] == kGramMark; }

// --boundary-match. tag: a boundary is a whole tag name (<p>, not <pre>); prefix: '<' + a tag name
// as a mere prefix (so "p" also splits at <pre, <param, <path), as the paper's released Hadoop
// code splits; scan chunker only.
enum class BoundaryMatch { Tag, Prefix };
constexpr std::array<EnumName<BoundaryMatch>, 2> enum_names(BoundaryMatch) {
  return {{{"tag", BoundaryMatch::Tag}, {"prefix", BoundaryMatch::Prefix}}};
}

// --gram-words and --window bounds: beyond them a gram or a window is not a useful unit.
inline constexpr std::uint32_t kMaxGramWords = 1000;
inline constexpr std::uint32_t kMaxWindow = 1000;

struct ChunkerOptions {
  std::vector<std::string> tags{"p", "div"};  // boundary tag names, lowercase ASCII
  BoundaryMatch boundary_match = BoundaryMatch::Tag;
  // winnow chunker only: words per gram (K) and hashes per window (W); any shared run of
  // W + K − 1 words is found (docs/winnow.md).
  std::uint32_t gram_words = 5;
  std::uint32_t window = 12;
};

class Chunker {
 public:
  virtual ~Chunker() = default;
  // Calls emit(normalized) for each non-empty chunk, in page order. `normalized` is valid only
  // during the call. charset: the HTTP header's charset label ("" = none); the dom and sentence
  // chunkers decode by HTML5 sniffing (byte-order mark, this label, <meta> in the first 1 KiB).
  // Returns "" when the page was chunked, else why it was not (a counter name after "skipped.",
  // e.g. "dom.too_deep"); then nothing was emitted.
  virtual std::string_view chunk(std::string_view page, std::string_view charset,
                                 const std::function<void(std::string_view normalized)>& emit) = 0;

  // Parts of the last page chunk() left out for a local defect (a sentence holding undecodable
  // bytes, or control characters) while the rest of the page was chunked: a bad byte costs its
  // part, never the page. Callers count each reason as skipped.<reason>, `count` times, also when
  // nothing was left of the page (then chunk() returned its own reason as well); count 0: nothing
  // was left out for that reason. Up to two reasons, with no allocation (called for every page).
  struct DroppedParts {
    std::string_view reason;
    std::uint64_t count = 0;
  };
  using Dropped = std::array<DroppedParts, 2>;
  virtual Dropped dropped_parts() const { return {}; }
};

// "" when `kind` can use these options, else why not (names the option). Commands check it before
// a job reads any input or opens its output (CommonOptions::problem); make_chunker throws it.
std::string chunking_problem(ChunkerKind kind, const ChunkerOptions& options);

// Throws UsageError on bad options (chunking_problem, or a tag name that cannot be one).
std::unique_ptr<Chunker> make_chunker(ChunkerKind kind, const ChunkerOptions& options);

// Collapses every run of ASCII whitespace (tab, LF, FF, CR, space) to one space and trims both ends.
void normalize_whitespace(std::string_view in, std::string& out);

}  // namespace crd::chunk
