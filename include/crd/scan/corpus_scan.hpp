// Corpus scan: one rank reads its shard, cleans URLs (paper §4.4.1), hashes every file and every
// chunk (§4.5) and tallies them locally. Optionally keeps each page's chunk-id vector so detection
// can run without reading the corpus again (crd run).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "crd/base/chunk_ids.hpp"
#include "crd/chunk/chunker.hpp"
#include "crd/base/counters.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/hash/digest.hpp"
#include "crd/io/inputs.hpp"
#include "crd/url/url_key.hpp"

namespace crd::scan {

// Out-of-core counting (docs/memory.md): one of `count` slices of the hash space. Chosen by the
// digest's last four bytes, independent of the owner bits (0..7) and the table index (8..15), so
// every pass spreads over every owner and fills its tables evenly.
struct HashPass {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
  bool contains(const Digest& d) const {
    if (count == 1) return true;
    const std::uint64_t tail = (std::uint64_t{d.bytes[16]} << 24) | (std::uint64_t{d.bytes[17]} << 16) |
                               (std::uint64_t{d.bytes[18]} << 8) | d.bytes[19];
    return ((tail * count) >> 32) == index;
  }
};

struct ScanOptions {
  chunk::ChunkerKind chunker = chunk::ChunkerKind::Scan;
  chunk::ChunkerOptions chunking;
  url::RecursionRules recursion;
  std::size_t sample_bytes = 256;
  bool keep_page_chunks = false;
  // Read and inflate on a second thread, overlapping chunking and hashing (needs a spare core).
  bool reader_thread = false;
  // Payload bytes in flight between the reader thread and the scan (at least one document). Deep
  // enough that a fast scan (discover's hashing) never waits for the reader; a command whose
  // per-page work is several times slower than reading gains nothing from depth and keeps it small
  // (the reader's freed bodies stay resident in its heap).
  std::uint64_t reader_queue_bytes = std::uint64_t{64} << 20;
  io::ReadOptions read;
  // Called with each kept page's key and its document when it is text (is_chunkable): the hook by
  // which crd neardup reads, cleans and shards exactly as discover does.
  std::function<void(std::string_view key, const io::Document& doc)> on_page;
  // Chunk, hash and tally the text pages, and hash and tally every page's whole body (discover,
  // detect); off when only on_page uses the pages (neardup, quilts: the body's SHA-1 was 3 % of
  // a quilts run, for a table nothing read).
  bool chunk_pages = true;
  // Called with every chunk's SHA-1 and full normalized bytes (valid during the call), on the scan
  // thread, before it is tallied: for the few commands that need more of a chunk than its sample
  // (crd compare-hashing sketches it with LSH functions). Unset on the hot path of the others.
  std::function<void(const Digest& digest, std::string_view normalized)> on_chunk;
  // Tally only the chunk and file hashes of this pass; with keep_page_chunks, is_stop classifies
  // the chunks of other passes (kOtherPassChunk / kOtherPassStopChunk).
  HashPass pass;
  std::function<bool(const Digest& digest, std::uint64_t length)> is_stop;
};

struct ScannedShard {
  discover::PageKeys keys;                  // by local page index
  discover::LocalTally chunks{256};
  discover::LocalTally files{0};
  // keep_page_chunks: page p's chunk ids are page_chunk_ids[page_offsets[p] … page_offsets[p+1])
  // (or the kOtherPass… markers during a pass).
  std::vector<std::uint64_t> page_offsets{0};
  std::vector<std::uint32_t> page_chunk_ids;
  Counters counters;
  std::vector<io::ReadError> errors;
};

// Called after each input file with the shard so far, bytes of this shard done and documents done;
// returning false stops the scan (e.g. over the memory budget).
using ScanProgress = std::function<bool(const ScannedShard& shard, std::uint64_t bytes, std::uint64_t documents)>;

// Called after every document with the shard so far and the bytes of this shard read (within a
// file, its bodies' bytes stand in for its own, capped at its size); returning false stops the scan
// at once, even inside a file (a WARC holds millions of documents): the memory budget.
using ScanFits = std::function<bool(const ScannedShard& shard, std::uint64_t bytes)>;

ScannedShard scan_shard(const std::vector<io::InputFile>& files, const std::vector<std::size_t>& shard,
                        const ScanOptions& options, const ScanProgress& progress = {}, const ScanFits& fits = {});

}  // namespace crd::scan
