// make_chunker: picks the chunker implementation.
#include "dom_chunker.hpp"
#include "scan_chunker.hpp"

namespace crd::chunk {

std::unique_ptr<Chunker> make_chunker(ChunkerKind kind, const ChunkerOptions& options) {
  if (kind == ChunkerKind::Dom) return std::make_unique<detail::DomChunker>(options);
  return std::make_unique<detail::ScanChunker>(options);
}

}  // namespace crd::chunk
