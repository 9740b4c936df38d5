// Byte counts as people read them: the one formatter for every size crd prints.
#pragma once

#include <cstdint>
#include <string>

namespace crd {

// `bytes` in the largest binary unit it reaches (B, KiB, MiB, GiB, TiB, PiB, EiB): a whole number
// when exact ("512 B", "64 MiB"), else truncated to two decimals ("1.50 GiB", "1023.99 KiB").
// So a size under 1 GiB is never "0.00 GiB", and a size is never shown larger than it is.
std::string human_bytes(std::uint64_t bytes);

}  // namespace crd
