// The chunking identity string of a run (chunking_identity.hpp).
#include "crd/pipeline/chunking_identity.hpp"

#include "crd/base/enum_names.hpp"

namespace crd::pipeline {

std::string chunking_identity(const scan::ScanOptions& options) {
  std::string tags;
  for (const auto& tag : options.chunking.tags) tags += (tags.empty() ? "" : ",") + tag;
  return std::string("chunker=") + name_of(options.chunker) + " tags=" + tags +
         " boundary-match=" + name_of(options.chunking.boundary_match) +
         " normalization=" + std::to_string(kNormalizationVersion);
}

}  // namespace crd::pipeline
