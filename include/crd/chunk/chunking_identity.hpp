// What makes two runs' hashes comparable: the chunker, its boundary tags and matching, and the
// version of the whitespace normalization. crd merge sums only count tables made alike.
#pragma once

#include <string>
#include <string_view>

#include "crd/chunk/chunker.hpp"

namespace crd::chunk {

// Bumped whenever normalization or chunk boundaries change the bytes hashed for the same page
// (docs/chunking.md): counts of earlier results then no longer add up with new ones.
inline constexpr int kNormalizationVersion = 1;

// "chunker=scan tags=p,div boundary-match=tag normalization=1" (winnow adds " gram-words=K
// window=W"): stored with the count tables (schema::attr::kChunking) and compared, as a whole,
// by crd merge.
std::string chunking_identity(ChunkerKind kind, const ChunkerOptions& options);

// The fields of a chunking identity its chunker uses: winnow takes its terms from the whole page,
// so its tags and boundary matching are left out (labels made under other --tags match alike).
// Every other chunker's identity is returned whole. For comparing a labels file with a run.
std::string chunking_used(std::string_view identity);

}  // namespace crd::chunk
