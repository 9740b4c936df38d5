// Options and error reports of read_input: limits that keep hostile archives bounded, and the
// per-file list of problems the run reports next to its counters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>

#include "crd/base/fields.hpp"

namespace crd::io {

struct ReadOptions {
  // Records (and decoded bodies) larger than this are skipped, without being held in memory.
  std::uint64_t max_record_bytes = 64ull << 20;
  // At most this many ReadError entries per input file; the counters still count every event.
  std::size_t max_errors_per_file = 100;
  // Test knob, 0 in production: when set, archive streams start with buffers and reads of this
  // many bytes and move their buffer on every refill, so every record crosses the buffer end
  // and any view kept across a refill reads freed memory (which ASan reports). The environment
  // variable CRD_TEST_STREAM_BYTES sets it for whole-program tests.
  std::size_t test_stream_bytes = 0;
};

// One problem found while reading: where it was and why data was skipped. `reason` is the
// counter suffix ("gzip.crc", "warc.bad_length", ...), `offset` the byte offset in the file on
// disk (for gzip: of the member the problem is in, or of the first garbage byte).
struct ReadError {
  std::string file;
  std::uint64_t offset = 0;
  std::string reason;
  // Sorted by all three for /run/errors, whose columns these are.
  static constexpr auto fields() {
    return std::tuple(field("file", &ReadError::file), field("offset", &ReadError::offset),
                      field("reason", &ReadError::reason));
  }
};

}  // namespace crd::io
