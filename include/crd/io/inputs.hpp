// Input expansion and sharding: command-line inputs → a deterministic list of files → one shard
// of that list per rank, balanced by size.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <string_view>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/io/document.hpp"
#include "crd/io/read_options.hpp"

namespace crd::io {

enum class InputKind { Warc, Arc, PlainFile };

struct InputFile {
  std::string path;       // as opened
  std::string url;        // for PlainFile: path relative to the directory given (or the path itself)
  std::uint64_t size = 0; // bytes on disk
  InputKind kind = InputKind::PlainFile;
};

// What listing the inputs left out. Every skip is counted ("skipped.<reason>", reasons such as
// "input.missing"); the ones a user must hear of by name (an input named but missing, a file gone
// during a walk, a compression crd does not read) are also listed, for /run/errors and warnings.
struct InputLog {
  Counters counters;
  std::vector<ReadError> errors;

  void skip(std::string_view reason);                          // counted only
  void fail(std::string_view path, std::string_view reason);   // counted and listed by name
};

struct ExpandOptions {
  // A named input (argument or @LIST line) that cannot be found is left out and listed in the
  // log instead of being a UsageError (--skip-missing).
  bool skip_missing = false;
  // Whether the command has --skip-missing, so that the error for a missing input may suggest it.
  bool offers_skip_missing = true;
  // If set, called with every @LIST file (nested ones too) before it is read, and every named
  // directory (given or listed) before it is walked; it may throw UsageError to refuse one (the
  // output checks: -o naming a nested list, --work-dir inside an input directory).
  std::function<void(const std::string& path, bool directory)> check_named = {};
};

// A directory walk, in rounds so that ranks can share one (pipeline/input_listing.cpp).
struct WalkedEntry {
  std::string rel;        // path relative to the directory walked
  std::uint64_t size = 0; // a file's size; a directory's own size (grows with its entries)
  static constexpr auto fields() { return std::tuple(&WalkedEntry::rel, &WalkedEntry::size); }
};
// What one round found: regular files (and links to them) and subdirectories, which the next
// round reads. A link to a directory is counted ("input.dir_symlink") and not followed; fifos,
// sockets and devices are counted ("input.not_regular") and never opened; an entry gone before its
// stat ("input.missing", also a dangling link) and a directory that cannot be opened
// ("input.unreadable") are counted and listed by path.
struct DirectoryRound {
  std::vector<WalkedEntry> files;
  std::vector<WalkedEntry> subdirs;
};
// A part of every directory's entries, chosen by a hash of the entry's name, so that ranks can
// share one large directory: ranks 0..count-1 reading slices 0..count-1 together read each entry
// once, in whatever order readdir returns them.
struct EntrySlice {
  std::size_t index = 0;
  std::size_t count = 1;  // 1: every entry
  bool takes(std::string_view name) const;
};
// Reads the directories `rel_dirs` of the tree at `root` ("" is the root itself), the entries of
// `slice` only.
DirectoryRound read_directories(const std::string& root, std::span<const std::string> rel_dirs, InputLog& log,
                                EntrySlice slice = {});
// Every file under `root`, in no particular order: rounds of read_directories, one per level.
std::vector<WalkedEntry> walk_directory(const std::string& root, InputLog& log);
// Any function returning the same files as walk_directory (in any order).
using DirectoryWalk = std::function<std::vector<WalkedEntry>(const std::string& root, InputLog& log)>;

// Expands files, directories (recursive, sorted by path bytes, symlinks to files followed once,
// symlinks to directories not followed, archives inside read as archives; each directory walked by
// `walk`) and @LIST files (one input per line, '#' comments, relative paths against the list's
// directory, nesting allowed; a list must be a regular file or a pipe, of bounded size and line
// length). Archives are recognised by name (.warc, .warc.gz, .arc, .arc.gz, any case); a file given
// directly or listed is also sniffed (WARC/ARC magic, gzipped or not) so "x.warc.gz.bad" works.
// The same arguments give the same list. Left out and logged: repeats of the same path
// ("input.duplicate", counted), a named input that is neither a file nor a directory
// ("input.not_regular"), an archive compressed with bzip2, xz, zstd or lz4 — named so, or named
// directly and compressed so ("input.unsupported_compression"), and with options.skip_missing a
// named input that cannot be found ("input.missing"). Throws UsageError, naming the input, for a
// named input that cannot be found (without skip_missing), a bad @LIST, or no files at all.
std::vector<InputFile> expand_inputs(const std::vector<std::string>& args, const ExpandOptions& options,
                                     InputLog& log, const DirectoryWalk& walk = walk_directory);

// A file that a walk of the directory `dir` (as given) found, as an input: its path is `dir`/rel,
// its url rel, its kind an archive's by its name. Only the name is looked at (a walk of many small
// files must not open each one twice): an archive compressed so that crd does not read it is left
// out and logged ("input.unsupported_compression"), and nullopt returned.
std::optional<InputFile> walked_input(const std::string& dir, WalkedEntry&& entry, InputLog& log);
// The usage error for arguments that gave no files at all: names them, and when inputs were left
// out, the first and why.
std::string no_inputs_message(const std::vector<std::string>& args, const InputLog& log);

// Assigns items of the given sizes to ranks: largest first (ties → lower index), each to the
// least-loaded rank (ties → lowest rank); an item weighs size + 1 so empty ones spread too.
// Returns, for each rank, the indices it takes, ascending. nranks < 1 → invalid_argument.
std::vector<std::vector<std::size_t>> assign_by_size(std::span<const std::uint64_t> sizes, int nranks);
// What scanning a file costs, in bytes of uncompressed input: its size, times kGzipScanWeight for
// a gzip archive (gzip_named), whose every byte is inflated to several that are then chunked and
// hashed. Ranks are given equal shares of this, not of bytes on disk. Saturates at 2^64 - 1.
inline constexpr std::uint64_t kGzipScanWeight = 6;
std::uint64_t scan_weight(const InputFile& file);
// assign_by_size over the files' scan weights: the indices into `files` each rank reads.
std::vector<std::vector<std::size_t>> assign_shards(const std::vector<InputFile>& files, int nranks);
// The files' listed sizes, summed.
std::uint64_t total_bytes(const std::vector<InputFile>& files);
// An archive (WARC/ARC) whose name ends in .gz (any case): read through zlib, which costs about
// as much as chunking it. Plain files are never inflated, whatever their name.
bool gzip_named(const InputFile& file);

// Files read one after another, mostly from the same directories: the directory last opened is
// kept and the next file opened relative to it. Opening by full path repeats the lookup of every
// directory on the path for each file, a fifth of the cost of reading a tree of small pages. Meant
// for one thread's run over a list of files; not shared between threads.
class DirectoryCache {
 public:
  DirectoryCache() = default;
  DirectoryCache(const DirectoryCache&) = delete;
  DirectoryCache& operator=(const DirectoryCache&) = delete;
  ~DirectoryCache();
  // open(2) of `path` for reading: a descriptor, or -1 with errno set.
  int open_file(const std::string& path);
  // The body buffer of the plain file read before, once its document was used (empty if the
  // consumer moved the body away): plain files reuse one buffer instead of allocating one each,
  // which for files past malloc's mmap threshold meant an mmap, a page fault per 4 KiB and a
  // munmap per file.
  std::string take_body() { return std::move(spare_body_); }
  // A buffer over kMaxSpareBody is freed instead: one huge file must not pin its memory for the
  // rest of the shard.
  void give_back_body(std::string&& body) {
    if (body.capacity() <= kMaxSpareBody) spare_body_ = std::move(body);
  }
  static constexpr std::size_t kMaxSpareBody = std::size_t{64} << 20;

 private:
  std::string spare_body_;
  std::string dir_;
  int fd_ = -1;
  bool noatime_ = true;  // O_NOATIME allowed so far (files of other users refuse it)
};

// Reads one input file, calling on_document for each document in it. Counts "input.files",
// "input.bytes" (bytes read from disk), "records" (archive records seen; a plain file is one),
// "documents", and "skipped.<reason>" for every skip. Bad records are skipped and counted by
// reason; the problems among them (not the ordinary skips such as revisits or non-2xx responses)
// are also appended to *errors when given, at most options.max_errors_per_file per call.
// Never throws for bad content; an unreadable file is counted as "skipped.input.unreadable".
// WARC/ARC is told by the file's first bytes (gzip detected by magic), falling back to `kind`.
// With `dirs`, a plain file is opened relative to the directory of the file read before it, and
// read into the buffer of the plain file before it (see DirectoryCache::take_body).
void read_input(const InputFile& file, Counters& counters,
                const std::function<void(Document&&)>& on_document,
                const ReadOptions& options = {}, std::vector<ReadError>* errors = nullptr,
                DirectoryCache* dirs = nullptr);

}  // namespace crd::io
