// The chunking identity string of a run (chunking_identity.hpp).
#include "crd/chunk/chunking_identity.hpp"

#include <algorithm>

namespace crd::chunk {

std::string chunking_identity(ChunkerKind kind, const ChunkerOptions& options) {
  std::string tags;
  for (const auto& tag : options.tags) tags += (tags.empty() ? "" : ",") + tag;
  std::string identity = std::string("chunker=") + name_of(kind) + " tags=" + tags +
                         " boundary-match=" + name_of(options.boundary_match) +
                         " normalization=" + std::to_string(kNormalizationVersion);
  // Winnowed grams depend on K and W; the other chunkers' identities stay as they were written.
  if (kind == ChunkerKind::Winnow || kind == ChunkerKind::WinnowScan)
    identity += " gram-words=" + std::to_string(options.gram_words) + " window=" + std::to_string(options.window);
  return identity;
}

std::string chunking_used(std::string_view identity) {
  if (!identity.starts_with("chunker=winnow ")) return std::string(identity);
  std::string out;
  for (std::size_t at = 0; at < identity.size();) {
    const std::size_t space = std::min(identity.find(' ', at), identity.size());
    const std::string_view field = identity.substr(at, space - at);
    at = space + 1;
    if (field.starts_with("tags=") || field.starts_with("boundary-match=")) continue;
    out += (out.empty() ? "" : " ") + std::string(field);
  }
  return out;
}

}  // namespace crd::chunk
