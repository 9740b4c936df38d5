// The framing of one checkpoint file, so that a damaged, truncated or foreign file is recognised
// before anything in it is used:
//
//   u64 magic "CRDCKPT\n" | u32 format version | phase name (u64 length + bytes) | owner: job
//   fingerprint (u64 length + bytes), u32 rank, u32 rank count | the phase's payload
//   | u64 end marker | u64 count of the bytes before the CRC | u32 CRC-32 of every byte before it
//
// All integers native-endian: the same binary on the same machine reads its own checkpoints.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "crd/base/binary_file.hpp"

namespace crd::pipeline {

// Version 3 added the end count and the CRC-32; version 4 the robust statistics and clamp flags in
// the detection phase's DetectionStats and the top-N cut in the discovery phase; version 5 the
// owner count rows of --keep-counts in the discovery phase; version 6 the owner (hostile input: a rank's
// file swapped with another's, or another job's file put under this job's name, was used, and
// crashed crd or changed its result); version 7 the detection phase's count of pages of stop chunks
// only and the labels stopped per host (--host-stop-pages); version 8 no new field, but a job's files
// are dealt to ranks by scan weight (io::scan_weight), so a rank's scan of version 7 may hold
// another set of files when gzip archives and other inputs are mixed. A file of any other version
// is never read.
constexpr std::uint32_t kCheckpointFormat = 8;

// Whose state a checkpoint holds: a job (its fingerprint, job_fingerprint in checkpoint.hpp,
// which covers the rank count) and one of its ranks.
struct CheckpointOwner {
  std::string job;
  std::uint32_t rank = 0;
  std::uint32_t ranks = 1;
  bool operator==(const CheckpointOwner&) const = default;
};

// Writes, flushes and fsyncs `path`. Throws FatalError naming the file and the system error.
void write_checkpoint_file(const std::string& path, const std::string& phase, const CheckpointOwner& owner,
                           const std::function<void(BinaryFileWriter&)>& write);

// "" if `path` is an intact checkpoint of `phase` in this format, written by `owner`, in which
// case read() has consumed exactly its payload (read() may throw std::runtime_error when what it
// decoded does not fit the rank's other state: that is a reason too). Otherwise the reason it
// cannot be used, as a phrase that follows the file's name ("fails its CRC-32 check …",
// "belongs to rank 1 of 2, not rank 0 of 2"); read() may have been called on an undecodable
// payload, so the caller must discard what it produced.
std::string read_checkpoint_file(const std::string& path, const std::string& phase, const CheckpointOwner& owner,
                                 const std::function<void(BinaryFileReader&)>& read);

}  // namespace crd::pipeline
