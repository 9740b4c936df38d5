// scan_shard: the per-document hot path (key → clean → chunk → chunk and file hashes → tally).
#include "crd/scan/corpus_scan.hpp"

#include <algorithm>
#include <exception>
#include <iterator>
#include <thread>

#include "document_queue.hpp"
#include "crd/hash/document_hasher.hpp"

namespace crd::scan {
namespace {

// Documents in flight between the reader thread and the scan (bytes of payload).
constexpr std::uint64_t kReaderQueueBytes = 64u << 20;
// Thrown by the document callback to leave read_input when progress says stop.
struct StopScan {};

const char* drop_reason(url::RecursionVerdict v) {
  switch (v) {
    case url::RecursionVerdict::TooDeep: return "cleaning.dropped.too_deep";
    case url::RecursionVerdict::RepeatedComponent: return "cleaning.dropped.repeated_component";
    case url::RecursionVerdict::Ok: break;
  }
  return nullptr;
}

}  // namespace

ScannedShard scan_shard(const std::vector<io::InputFile>& files, const std::vector<std::size_t>& shard,
                        const ScanOptions& options, const ScanProgress& progress, const ScanFits& fits) {
  ScannedShard out;
  out.chunks = discover::LocalTally(options.sample_bytes);
  auto chunker = chunk::make_chunker(options.chunker, options.chunking);
  DocumentHasher hasher;
  std::uint64_t bytes_done = 0;
  std::uint64_t documents_done = 0;
  // Within a file: its bytes are not known until its end, so the body bytes read stand in, capped
  // at the file's size (for gzip input they grow faster than the file's bytes).
  std::uint64_t file_bytes = 0;
  std::uint64_t file_body_bytes = 0;
  auto in_file = [&] { return bytes_done + std::min(file_body_bytes, file_bytes); };
  auto keep_going = [&] { return !fits || fits(out, in_file()); };

  auto on_document = [&](io::Document&& doc) {
    ++documents_done;
    file_body_bytes += doc.body.size();
    auto key = url::url_key(doc.url);
    if (!key) {
      out.counters.add("cleaning.dropped.no_host");
      return;
    }
    if (const char* reason = drop_reason(url::check_recursion(*key, options.recursion))) {
      out.counters.add(reason);
      return;
    }
    const auto page = static_cast<std::uint32_t>(out.keys.size());
    out.keys.push_back(std::move(*key));
    hasher.start(doc.body);

    const bool text = io::is_chunkable(doc);
    if (text && options.on_page) options.on_page(out.keys.back(), doc);
    if (text && options.chunk_pages) {
      out.counters.add("documents.chunked");
      out.counters.add("bytes.chunked", doc.body.size());
      std::uint64_t chunks = 0;
      // Each chunk is tallied one chunk late: its table slot is prefetched first, and the memory
      // fetch overlaps the next chunk's SHA-1 (the table outgrows the cache; a miss per chunk was
      // 11% of the scan). Only the sample prefix needs keeping meanwhile.
      bool pending = false;
      Digest pending_digest;
      std::uint64_t pending_length = 0;
      std::string pending_sample;
      auto flush = [&] {
        if (!pending) return;
        pending = false;
        if (!options.pass.contains(pending_digest)) {
          if (options.keep_page_chunks)
            out.page_chunk_ids.push_back(options.is_stop(pending_digest, pending_length) ? kOtherPassStopChunk
                                                                                         : kOtherPassChunk);
          return;
        }
        const std::uint32_t id = out.chunks.add(pending_digest, pending_length, pending_sample, page, out.keys);
        if (options.keep_page_chunks) out.page_chunk_ids.push_back(id);
      };
      const std::string_view skipped = chunker->chunk(doc.body, doc.charset, [&](std::string_view normalized) {
        const Digest digest = hasher.chunk(normalized);
        if (options.on_chunk) options.on_chunk(digest, normalized);
        out.chunks.prefetch(digest);
        flush();
        pending = true;
        pending_digest = digest;
        pending_length = normalized.size();
        pending_sample.assign(normalized.substr(0, std::min(normalized.size(), options.sample_bytes)));
        ++chunks;
      });
      flush();
      if (!skipped.empty()) out.counters.add("skipped." + std::string(skipped));
      if (const auto dropped = chunker->dropped_parts(); dropped.count != 0)
        out.counters.add("skipped." + std::string(dropped.reason), dropped.count);
      out.counters.add("chunks", chunks);
    }
    const Digest file_digest = hasher.finish();
    if (options.pass.contains(file_digest)) out.files.add(file_digest, doc.body.size(), {}, page, out.keys);
    if (options.keep_page_chunks) out.page_offsets.push_back(out.page_chunk_ids.size());
  };

  if (!options.reader_thread) {
    io::DirectoryCache dirs;
    for (std::size_t index : shard) {
      const io::InputFile& file = files[index];
      file_bytes = file.size;
      file_body_bytes = 0;
      try {
        io::read_input(
            file, out.counters,
            [&](io::Document&& d) {
              on_document(std::move(d));
              if (!keep_going()) throw StopScan{};
            },
            options.read, &out.errors, &dirs);
      } catch (const StopScan&) {
        break;
      }
      bytes_done += file.size;
      if (progress && !progress(out, bytes_done, documents_done)) break;
    }
    return out;
  }

  // A reader thread reads and inflates while this thread chunks and hashes. Documents arrive in
  // the same order as without it, and its counters and errors are merged afterwards, so the
  // result is the same.
  DocumentQueue queue(kReaderQueueBytes);
  Counters reader_counters;
  std::vector<io::ReadError> reader_errors;
  std::exception_ptr reader_failure;
  std::thread reader([&] {
    try {
      io::DirectoryCache dirs;
      for (std::size_t index : shard) {
        const io::InputFile& file = files[index];
        bool open = true;
        io::read_input(file, reader_counters,
                       [&](io::Document&& d) { open = open && queue.push({std::move(d), false, 0}); },
                       options.read, &reader_errors, &dirs);
        if (!open || !queue.push({{}, true, file.size})) break;
      }
    } catch (...) {
      reader_failure = std::current_exception();
    }
    queue.close();
  });
  // However this thread leaves (a budget stop, an exception), the reader is released and joined.
  struct JoinReader {
    DocumentQueue& queue;
    std::thread& thread;
    ~JoinReader() {
      queue.close();
      if (thread.joinable()) thread.join();
    }
  } join_reader{queue, reader};

  QueuedItem item;
  std::size_t file_at = 0;  // the reader sends the shard's files in order, each ended by a marker
  while (queue.pop(item)) {
    if (!item.file_done) {
      file_bytes = files[shard[file_at]].size;
      on_document(std::move(item.doc));
      if (!keep_going()) break;
      continue;
    }
    bytes_done += item.file_bytes;
    file_body_bytes = 0;
    ++file_at;
    if (progress && !progress(out, bytes_done, documents_done)) break;
  }
  queue.close();
  reader.join();
  if (reader_failure) std::rethrow_exception(reader_failure);
  out.counters.merge(reader_counters);
  out.errors.insert(out.errors.end(), std::make_move_iterator(reader_errors.begin()),
                    std::make_move_iterator(reader_errors.end()));
  return out;
}

}  // namespace crd::scan
