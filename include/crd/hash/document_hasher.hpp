// The SHA-1 of a document and of each of its chunks, computed side by side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crd/hash/digest.hpp"
#include "crd/hash/sha1.hpp"

namespace crd {

// With SHA-NI, SHA-1's rounds wait on one another, so two independent messages hashed block by
// block in one loop take little longer than one (3.0 against 1.9 GB/s on an AMD Zen 5 core).
// A page's own hash is such a second message: it advances a block for each block of the chunk
// being hashed, and what is left is hashed alone at finish(). OpenSSL hashes one message at a time,
// so the two-lane compression is written here (src/hash/sha1_lanes.cpp); without SHA-NI both
// digests come from OpenSSL. Either way the digests are plain SHA-1.
//
// Thread-compatible: keep one per thread.
class DocumentHasher {
 public:
  // `lanes` false: always OpenSSL (for tests); true: two lanes where the CPU has SHA-NI.
  explicit DocumentHasher(bool lanes = true);

  // Starts on `document`, which must stay alive and unchanged until finish().
  void start(std::string_view document);
  // The SHA-1 of `chunk` (any bytes, not necessarily part of the document).
  Digest chunk(std::string_view chunk);
  // The SHA-1 of the document given to start().
  Digest finish();

  // Whether this object hashes two messages at once.
  bool two_lanes() const { return lanes_; }

 private:
  // A message as a run of 64-byte blocks: its full blocks in place, then its last bytes and the
  // padding in `tail` (one or two blocks).
  struct Blocks {
    const unsigned char* data = nullptr;
    std::size_t full = 0;
    std::size_t next = 0;  // blocks taken so far
    std::size_t tail_blocks = 0;
    unsigned char tail[128];
    void reset(std::string_view message);
    std::size_t left() const { return full + tail_blocks - next; }
    const unsigned char* take() {
      const std::size_t i = next++;
      return i < full ? data + 64 * i : tail + 64 * (i - full);
    }
  };

  bool lanes_;
  Sha1 openssl_;
  std::string_view document_;
  Blocks doc_;
  std::uint32_t doc_state_[5];
  Blocks chunk_;
};

}  // namespace crd
