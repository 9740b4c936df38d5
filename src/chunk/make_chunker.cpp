// make_chunker: picks the chunker implementation.
#include "combined_chunker.hpp"
#include "crd/base/error.hpp"
#include "dom_chunker.hpp"
#include "scan_chunker.hpp"
#include "sentence_chunker.hpp"
#include "winnow_chunker.hpp"

namespace crd::chunk {

std::string chunking_problem(ChunkerKind kind, const ChunkerOptions& options) {
  // The DOM chunker splits at elements, whose names are whole: a name prefix means nothing there
  // (nor to the winnow chunker, which has no boundaries).
  if (kind != ChunkerKind::Scan && options.boundary_match == BoundaryMatch::Prefix)
    return std::string("--boundary-match prefix needs --chunker scan (") + name_of(kind) +
           (kind == ChunkerKind::Winnow       ? " has no boundaries)"
            : kind == ChunkerKind::WinnowScan ? " splits scan's way and winnows)"
                                              : " splits at whole elements)");
  return {};
}

std::unique_ptr<Chunker> make_chunker(ChunkerKind kind, const ChunkerOptions& options) {
  if (const std::string problem = chunking_problem(kind, options); !problem.empty()) throw UsageError(problem);
  if (kind == ChunkerKind::Scan) return std::make_unique<detail::ScanChunker>(options);
  if (kind == ChunkerKind::Winnow) return std::make_unique<detail::WinnowChunker>(options);
  if (kind == ChunkerKind::WinnowScan) return std::make_unique<detail::CombinedChunker>(options);
  if (kind == ChunkerKind::Sentence) return std::make_unique<detail::SentenceChunker>(options);
  return std::make_unique<detail::DomChunker>(options);
}

}  // namespace crd::chunk
