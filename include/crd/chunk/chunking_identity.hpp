// What makes two runs' hashes comparable: the chunker, its boundary tags and matching, and the
// version of the whitespace normalization. crd merge sums only count tables made alike.
#pragma once

#include <string>

#include "crd/chunk/chunker.hpp"

namespace crd::chunk {

// Bumped whenever normalization or chunk boundaries change the bytes hashed for the same page
// (docs/chunking.md): counts of earlier results then no longer add up with new ones.
inline constexpr int kNormalizationVersion = 1;

// "chunker=scan tags=p,div boundary-match=tag normalization=1" (winnow adds " gram-words=K
// window=W"): stored with the count tables (schema::attr::kChunking) and compared, as a whole,
// by crd merge.
std::string chunking_identity(ChunkerKind kind, const ChunkerOptions& options);

}  // namespace crd::chunk
