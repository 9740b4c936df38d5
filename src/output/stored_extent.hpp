// The check that a dataset's declared extent is backed by the file before crd reads it (output/ only).
#pragma once

#include <hdf5.h>

#include <string>

namespace crd::output {

// A dataset's header declares its extent; nothing makes the file hold that many rows. An empty
// dataset declaring (2^33, 20) reads back as fill values, block after block, until the caller's
// vectors exhaust memory. So before any read, the declared bytes must be in the file:
//  - contiguous storage: allocated, and at least extent × element size bytes;
//  - chunked storage: every chunk the extent spans allocated (each then holds real bytes; a
//    compressed one can expand at most 1032 to 1 under deflate, and --memory bounds the rest);
//  - compact storage holds its data in the header: as many bytes as the header says it holds;
//  - external files and virtual datasets (which crd never writes) are refused.
// Throws FatalError "cannot read 'PATH': NAME declares … but …" (one line) otherwise.
// The caller holds hdf5_lock().
void check_stored_extent(hid_t dataset, const std::string& path, const std::string& name);

}  // namespace crd::output
