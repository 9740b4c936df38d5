// The chunking identity string of a run (chunking_identity.hpp).
#include "crd/pipeline/chunking_identity.hpp"

#include "crd/base/enum_names.hpp"

namespace crd::pipeline {

std::string chunking_identity(const scan::ScanOptions& options) {
  std::string tags;
  for (const auto& tag : options.chunking.tags) tags += (tags.empty() ? "" : ",") + tag;
  std::string identity = std::string("chunker=") + name_of(options.chunker) + " tags=" + tags +
                         " boundary-match=" + name_of(options.chunking.boundary_match) +
                         " normalization=" + std::to_string(kNormalizationVersion);
  // Winnowed grams depend on K and W; the other chunkers' identities stay as they were written.
  if (options.chunker == chunk::ChunkerKind::Winnow || options.chunker == chunk::ChunkerKind::WinnowScan)
    identity += " gram-words=" + std::to_string(options.chunking.gram_words) +
                " window=" + std::to_string(options.chunking.window);
  return identity;
}

}  // namespace crd::pipeline
