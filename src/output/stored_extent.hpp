// The check that a dataset's declared extent is backed by the file before crd reads it (output/ only).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>

namespace crd::output {

// A dataset's header declares its extent; nothing makes the file hold that many rows. An empty
// dataset declaring (2^33, 20) reads back as fill values, block after block, until the caller's
// vectors exhaust memory. So before any read, the declared bytes must be in the file:
//  - contiguous storage: allocated, and at least extent × element size bytes;
//  - chunked storage: every chunk the extent spans allocated, and, when filtered (crd deflates),
//    no more than kMaxInflation times the stored bytes (deflate cannot expand data further);
//  - compact storage holds its data in the header: always backed;
//  - external files and virtual datasets (which crd never writes) are refused.
// Throws FatalError "cannot read 'PATH': NAME declares … but …" (one line) otherwise.
// The caller holds hdf5_lock().
void check_stored_extent(hid_t dataset, const std::string& path, const std::string& name);

// Deflate codes at most 258 bytes in two one-bit codes: 1032 to 1 at best; a little headroom.
inline constexpr std::uint64_t kMaxInflation = 1100;

}  // namespace crd::output
