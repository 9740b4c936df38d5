// Chunker: splits a page into chunks at boundary tags and hands out each chunk's normalized bytes.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "crd/base/enum_names.hpp"

namespace crd::chunk {

// scan: raw markup (the contract in docs/chunking.md); dom: the gumbo HTML5 tree's visible text;
// sentence: that visible text split into sentences by ICU (docs/sentences.md).
enum class ChunkerKind { Scan, Dom, Sentence };
constexpr std::array<EnumName<ChunkerKind>, 3> enum_names(ChunkerKind) {
  return {{{"scan", ChunkerKind::Scan}, {"dom", ChunkerKind::Dom}, {"sentence", ChunkerKind::Sentence}}};
}

// --boundary-match. tag: a boundary is a whole tag name (<p>, not <pre>); prefix: '<' + a tag name
// as a mere prefix (so "p" also splits at <pre, <param, <path), as the paper's released Hadoop
// code splits; scan chunker only.
enum class BoundaryMatch { Tag, Prefix };
constexpr std::array<EnumName<BoundaryMatch>, 2> enum_names(BoundaryMatch) {
  return {{{"tag", BoundaryMatch::Tag}, {"prefix", BoundaryMatch::Prefix}}};
}

struct ChunkerOptions {
  std::vector<std::string> tags{"p", "div"};  // boundary tag names, lowercase ASCII
  BoundaryMatch boundary_match = BoundaryMatch::Tag;
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
};

// Throws UsageError on bad options (a tag name that cannot be one).
std::unique_ptr<Chunker> make_chunker(ChunkerKind kind, const ChunkerOptions& options);

// Collapses every run of ASCII whitespace (tab, LF, FF, CR, space) to one space and trims both ends.
void normalize_whitespace(std::string_view in, std::string& out);

}  // namespace crd::chunk
