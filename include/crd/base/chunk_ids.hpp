// Page chunk vectors (scan → detect) hold local chunk ids; during a pass of out-of-core counting
// (docs/memory.md) a chunk of another pass is not tallied and gets one of these markers instead.
// Page positions count only non-stop chunks, so the marker says whether the chunk is a stop chunk.
#pragma once

#include <cstdint>

namespace crd {

inline constexpr std::uint32_t kOtherPassChunk = 0xFFFFFFFFu;
inline constexpr std::uint32_t kOtherPassStopChunk = 0xFFFFFFFEu;

}  // namespace crd
