// Input expansion and sharding: command-line inputs → a deterministic list of files → one shard
// of that list per rank, balanced by size.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "crd/core/counters.hpp"
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

// Expands files, directories (recursive, sorted by path bytes, symlinks to files followed once,
// symlinks to directories not followed, archives inside read as archives) and @LIST files (one
// input per line, '#' comments, relative paths against the list's directory, nesting allowed).
// Archives are recognised by name (.warc, .warc.gz, .arc, .arc.gz, any case); a file given
// directly or listed is also sniffed (WARC/ARC magic, gzipped or not) so "x.warc.gz.bad" works.
// The same arguments give the same list. Unreadable or missing
// inputs are counted ("skipped.input.missing") and left out, as are repeats of the same path
// ("skipped.input.duplicate"); a missing @LIST file or an input list with no files at all throws
// UsageError.
std::vector<InputFile> expand_inputs(const std::vector<std::string>& args, Counters& counters);

// A directory walk, in rounds so that ranks can share one (pipeline/input_listing.cpp).
struct WalkedEntry {
  std::string rel;        // path relative to the directory walked
  std::uint64_t size = 0; // a file's size; a directory's own size (grows with its entries)
};
// What one round found: regular files (and links to them) and subdirectories, which the next
// round reads. A link to a directory is counted ("skipped.input.dir_symlink") and not followed;
// an entry gone before its stat is counted ("skipped.input.missing"), a directory that cannot be
// opened too ("skipped.input.unreadable").
struct DirectoryRound {
  std::vector<WalkedEntry> files;
  std::vector<WalkedEntry> subdirs;
};
// Reads the directories `rel_dirs` of the tree at `root` ("" is the root itself).
DirectoryRound read_directories(const std::string& root, std::span<const std::string> rel_dirs, Counters& counters);
// Every file under `root`, in no particular order: rounds of read_directories, one per level.
std::vector<WalkedEntry> walk_directory(const std::string& root, Counters& counters);

// expand_inputs with each directory given walked by `walk`: any function returning the same files
// as walk_directory (in any order) gives the same list.
using DirectoryWalk = std::function<std::vector<WalkedEntry>(const std::string& root, Counters& counters)>;
std::vector<InputFile> expand_inputs(const std::vector<std::string>& args, Counters& counters,
                                     const DirectoryWalk& walk);

// Assigns items of the given sizes to ranks: largest first (ties → lower index), each to the
// least-loaded rank (ties → lowest rank); an item weighs size + 1 so empty ones spread too.
// Returns, for each rank, the indices it takes, ascending. nranks < 1 → invalid_argument.
std::vector<std::vector<std::size_t>> assign_by_size(std::span<const std::uint64_t> sizes, int nranks);
// assign_by_size over the files' sizes: the indices into `files` each rank reads.
std::vector<std::vector<std::size_t>> assign_shards(const std::vector<InputFile>& files, int nranks);

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

 private:
  std::string dir_;
  int fd_ = -1;
};

// Reads one input file, calling on_document for each document in it. Counts "input.files",
// "input.bytes" (bytes read from disk), "records" (archive records seen; a plain file is one),
// "documents", and "skipped.<reason>" for every skip. Bad records are skipped and counted by
// reason; the problems among them (not the ordinary skips such as revisits or non-2xx responses)
// are also appended to *errors when given, at most options.max_errors_per_file per call.
// Never throws for bad content; an unreadable file is counted as "skipped.input.unreadable".
// WARC/ARC is told by the file's first bytes (gzip detected by magic), falling back to `kind`.
// With `dirs`, a plain file is opened relative to the directory of the file read before it.
void read_input(const InputFile& file, Counters& counters,
                const std::function<void(Document&&)>& on_document,
                const ReadOptions& options = {}, std::vector<ReadError>* errors = nullptr,
                DirectoryCache* dirs = nullptr);

}  // namespace crd::io
