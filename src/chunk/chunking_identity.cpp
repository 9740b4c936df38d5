// The chunking identity string of a run (chunking_identity.hpp).
#include "crd/chunk/chunking_identity.hpp"

namespace crd::chunk {

std::string chunking_identity(ChunkerKind kind, const ChunkerOptions& options) {
  std::string tags;
  for (const auto& tag : options.tags) tags += (tags.empty() ? "" : ",") + tag;
  std::string identity = std::string("chunker=") + name_of(kind) + " tags=" + tags +
                         " boundary-match=" + name_of(options.boundary_match) +
                         " normalization=" + std::to_string(kNormalizationVersion);
  // Winnowed grams depend on K and W; the other chunkers' identities stay as they were written.
  if (kind == ChunkerKind::Winnow)
    identity += " gram-words=" + std::to_string(options.gram_words) + " window=" + std::to_string(options.window);
  return identity;
}

}  // namespace crd::chunk
