// Chunker: splits a page into chunks at boundary tags and hands out each chunk's normalized bytes.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace crd::chunk {

struct ChunkerOptions {
  std::vector<std::string> tags{"p", "div"};  // boundary tag names, lowercase ASCII
  // --boundary-match prefix: a boundary is '<' + a tag name as a mere prefix (so "p" also splits
  // at <pre, <param, <path), as the paper's released Hadoop code splits; scan chunker only.
  bool tag_prefix = false;
};

class Chunker {
 public:
  virtual ~Chunker() = default;
  // Calls emit(normalized) for each non-empty chunk, in page order. `normalized` is valid only
  // during the call. charset: lowercased declared charset ("" = unknown), used by the dom chunker.
  // Returns "" when the page was chunked, else why it was not (a counter name after "skipped.",
  // e.g. "dom.too_deep"); then nothing was emitted.
  virtual std::string_view chunk(std::string_view page, std::string_view charset,
                                 const std::function<void(std::string_view normalized)>& emit) = 0;
};

// kind: "scan" (raw markup, the contract in docs/chunking.md) or "dom" (gumbo HTML5 tree).
// Throws UsageError on an unknown kind.
std::unique_ptr<Chunker> make_chunker(std::string_view kind, const ChunkerOptions& options);

// Collapses every run of ASCII whitespace (tab, LF, FF, CR, space) to one space and trims both ends.
void normalize_whitespace(std::string_view in, std::string& out);

}  // namespace crd::chunk
