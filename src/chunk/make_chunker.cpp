// make_chunker: picks the chunker implementation by name.
#include <string>

#include "crd/core/error.hpp"
#include "dom_chunker.hpp"
#include "scan_chunker.hpp"

namespace crd::chunk {

std::unique_ptr<Chunker> make_chunker(std::string_view kind, const ChunkerOptions& options) {
  if (kind == "scan") return std::make_unique<detail::ScanChunker>(options);
  if (kind == "dom") {
    // The DOM chunker splits at elements, whose names are whole: a name prefix means nothing there.
    if (options.tag_prefix) throw UsageError("--boundary-match prefix needs --chunker scan (dom splits at whole elements)");
    return std::make_unique<detail::DomChunker>(options);
  }
  throw UsageError("unknown chunker '" + std::string(kind) + "' (expected scan or dom)");
}

}  // namespace crd::chunk
