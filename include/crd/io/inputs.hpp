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
// Every rank calls this on the same arguments and gets the same list. Unreadable or missing
// inputs are counted ("skipped.input.missing") and left out, as are repeats of the same path
// ("skipped.input.duplicate"); a missing @LIST file or an input list with no files at all throws
// UsageError.
std::vector<InputFile> expand_inputs(const std::vector<std::string>& args, Counters& counters);

// The size of a file found by walking a directory, until stat_sizes has looked.
inline constexpr std::uint64_t kSizeUnknown = ~std::uint64_t{0};

// expand_inputs in three steps, so that ranks can share the stat calls (a walk of many small
// files spends most of its time in them): list_inputs is expand_inputs except that regular files
// found in directories keep size kSizeUnknown; stat_sizes fills in the unknown sizes of any slice
// of that list, counting a file that is gone ("skipped.input.missing"), unreadable or no longer a
// regular file and leaving its size unknown; drop_unsized then removes those. require_inputs
// throws expand_inputs' UsageError when no file is left.
std::vector<InputFile> list_inputs(const std::vector<std::string>& args, Counters& counters);
void stat_sizes(std::span<InputFile> files, Counters& counters);
void drop_unsized(std::vector<InputFile>& files);
void require_inputs(const std::vector<InputFile>& files, const std::vector<std::string>& args);

// Assigns files to ranks: largest first (ties → lower index), each to the least-loaded rank
// (ties → lowest rank); a file weighs size + 1 so empty files spread too. Returns, for each rank,
// the indices into `files` it reads, in ascending index order. nranks < 1 → invalid_argument.
std::vector<std::vector<std::size_t>> assign_shards(const std::vector<InputFile>& files, int nranks);

// Reads one input file, calling on_document for each document in it. Counts "input.files",
// "input.bytes" (bytes read from disk), "records" (archive records seen; a plain file is one),
// "documents", and "skipped.<reason>" for every skip. Bad records are skipped and counted by
// reason; the problems among them (not the ordinary skips such as revisits or non-2xx responses)
// are also appended to *errors when given, at most options.max_errors_per_file per call.
// Never throws for bad content; an unreadable file is counted as "skipped.input.unreadable".
// WARC/ARC is told by the file's first bytes (gzip detected by magic), falling back to `kind`.
void read_input(const InputFile& file, Counters& counters,
                const std::function<void(Document&&)>& on_document,
                const ReadOptions& options = {}, std::vector<ReadError>* errors = nullptr);

}  // namespace crd::io
