// scan_shard: the per-document hot path (key → clean → chunk → chunk and file hashes → tally).
#include "crd/scan/corpus_scan.hpp"

#include <algorithm>
#include <exception>
#include <iterator>
#include <memory>
#include <thread>

#include "document_queue.hpp"
#include "crd/hash/document_hasher.hpp"

namespace crd::scan {
namespace {

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

// One shard's scan, whichever thread reads the input: the step per document (key → clean → chunk →
// hash → tally) and the bytes read so far, which progress and the memory budget see.
class ShardScanner {
 public:
  ShardScanner(const ScanOptions& options, const ScanFits& fits)
      : options_(options), fits_(fits), chunker_(chunk::make_chunker(options.chunker, options.chunking)) {
    out_.chunks = discover::LocalTally(options.sample_bytes);
  }

  // Documents of a file of `size` bytes follow: within it, the body bytes read stand in for its
  // bytes (not known until its end), capped at its size (for gzip input they grow faster).
  void in_file(std::uint64_t size) { file_bytes_ = size; }
  // The file is read whole: its bytes count from now on, and the next file's bodies from 0.
  void end_file(std::uint64_t size) {
    bytes_done_ += size;
    file_body_bytes_ = 0;
  }
  // False once the shard so far passes the memory budget.
  bool keep_going() { return !fits_ || fits_(out_, bytes_done_ + std::min(file_body_bytes_, file_bytes_)); }
  // False when progress says stop (checked at the end of each file).
  bool report(const ScanProgress& progress) { return !progress || progress(out_, bytes_done_, documents_done_); }

  void document(io::Document&& doc);

  ScannedShard& shard() { return out_; }

 private:
  void chunk_page(const io::Document& doc, std::uint32_t page);

  const ScanOptions& options_;
  const ScanFits& fits_;
  ScannedShard out_;
  std::unique_ptr<chunk::Chunker> chunker_;
  DocumentHasher hasher_;
  std::uint64_t bytes_done_ = 0;
  std::uint64_t documents_done_ = 0;
  std::uint64_t file_bytes_ = 0;
  std::uint64_t file_body_bytes_ = 0;
};

void ShardScanner::document(io::Document&& doc) {
  ++documents_done_;
  file_body_bytes_ += doc.body.size();
  auto key = url::url_key(doc.url);
  if (!key) {
    out_.counters.add("cleaning.dropped.no_host");
    return;
  }
  if (const char* reason = drop_reason(url::check_recursion(*key, options_.recursion))) {
    out_.counters.add(reason);
    return;
  }
  const auto page = static_cast<std::uint32_t>(out_.keys.size());
  out_.keys.push_back(std::move(*key));
  const bool text = io::is_chunkable(doc);
  if (text && options_.on_page) options_.on_page(out_.keys.back(), doc);
  if (options_.chunk_pages) {  // else only on_page reads the pages: no file hash to tally
    hasher_.start(doc.body);
    if (text) chunk_page(doc, page);
    const Digest file_digest = hasher_.finish();
    if (options_.pass.contains(file_digest)) out_.files.add(file_digest, doc.body.size(), {}, page, out_.keys);
  }
  if (options_.keep_page_chunks) out_.page_offsets.push_back(out_.page_chunk_ids.size());
}

void ShardScanner::chunk_page(const io::Document& doc, std::uint32_t page) {
  out_.counters.add("documents.chunked");
  out_.counters.add("bytes.chunked", doc.body.size());
  std::uint64_t chunks = 0;
  // Each chunk is tallied two chunks late, so that the table's memory is fetched while the next
  // chunks are hashed (the table outgrows the cache, and each insert would otherwise wait for two
  // misses in a row: its slot, then the row the slot names). When a chunk is hashed its slot is
  // prefetched; one chunk later the slot, now cached, names the row, which is prefetched; one
  // chunk later still the chunk is added. Adds keep the chunks' order. Only the sample prefix of
  // a chunk needs keeping meanwhile.
  struct Pending {
    bool held = false;
    Digest digest;
    std::uint64_t length = 0;
    std::string sample;
  };
  Pending older;  // hashed two chunks ago: tallied next
  Pending newer;  // hashed one chunk ago
  auto tally = [&](Pending& p) {
    if (!p.held) return;
    p.held = false;
    if (!options_.pass.contains(p.digest)) {
      if (options_.keep_page_chunks)
        out_.page_chunk_ids.push_back(options_.is_stop(p.digest, p.length) ? kOtherPassStopChunk : kOtherPassChunk);
      return;
    }
    const std::uint32_t id = out_.chunks.add(p.digest, p.length, p.sample, page, out_.keys);
    if (options_.keep_page_chunks) out_.page_chunk_ids.push_back(id);
  };
  const std::string_view skipped = chunker_->chunk(doc.body, doc.charset, [&](std::string_view normalized) {
    const Digest digest = hasher_.chunk(normalized);
    if (options_.on_chunk) options_.on_chunk(digest, normalized);
    out_.chunks.prefetch(digest);
    tally(older);
    std::swap(older, newer);  // newer is now free, its sample's buffer kept for reuse
    if (older.held) out_.chunks.prefetch_row(older.digest);
    newer.held = true;
    newer.digest = digest;
    newer.length = normalized.size();
    newer.sample.assign(normalized.substr(0, std::min(normalized.size(), options_.sample_bytes)));
    ++chunks;
  });
  tally(older);
  tally(newer);
  if (!skipped.empty()) out_.counters.add("skipped." + std::string(skipped));
  for (const auto& dropped : chunker_->dropped_parts())
    if (dropped.count != 0) out_.counters.add("skipped." + std::string(dropped.reason), dropped.count);
  out_.counters.add("chunks", chunks);
}

// This thread reads each file and scans its documents as they come.
void read_here(ShardScanner& scanner, const std::vector<io::InputFile>& files, const std::vector<std::size_t>& shard,
               const ScanOptions& options, const ScanProgress& progress) {
  io::DirectoryCache dirs;
  for (std::size_t index : shard) {
    const io::InputFile& file = files[index];
    scanner.in_file(file.size);
    try {
      io::read_input(
          file, scanner.shard().counters,
          [&](io::Document&& d) {
            scanner.document(std::move(d));
            if (!scanner.keep_going()) throw StopScan{};
          },
          options.read, &scanner.shard().errors, &dirs);
    } catch (const StopScan&) {
      return;
    }
    scanner.end_file(file.size);
    if (!scanner.report(progress)) return;
  }
}

// A reader thread reads and inflates while this thread chunks and hashes. Documents arrive in
// the same order as without it, and its counters and errors are merged afterwards, so the
// result is the same.
void read_in_reader_thread(ShardScanner& scanner, const std::vector<io::InputFile>& files,
                           const std::vector<std::size_t>& shard, const ScanOptions& options,
                           const ScanProgress& progress) {
  DocumentQueue queue(options.reader_queue_bytes);
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
      scanner.in_file(files[shard[file_at]].size);
      scanner.document(std::move(item.doc));
      if (!scanner.keep_going()) break;
      continue;
    }
    scanner.end_file(item.file_bytes);
    ++file_at;
    if (!scanner.report(progress)) break;
  }
  queue.close();
  reader.join();
  if (reader_failure) std::rethrow_exception(reader_failure);
  ScannedShard& out = scanner.shard();
  out.counters.merge(reader_counters);
  out.errors.insert(out.errors.end(), std::make_move_iterator(reader_errors.begin()),
                    std::make_move_iterator(reader_errors.end()));
}

}  // namespace

ScannedShard scan_shard(const std::vector<io::InputFile>& files, const std::vector<std::size_t>& shard,
                        const ScanOptions& options, const ScanProgress& progress, const ScanFits& fits) {
  ShardScanner scanner(options, fits);
  if (options.reader_thread) {
    read_in_reader_thread(scanner, files, shard, options, progress);
  } else {
    read_here(scanner, files, shard, options, progress);
  }
  return std::move(scanner.shard());
}

}  // namespace crd::scan
