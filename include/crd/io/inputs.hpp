// Input expansion and sharding: command-line inputs → a deterministic list of files → one shard
// of that list per rank, balanced by size.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "crd/core/counters.hpp"
#include "crd/io/document.hpp"

namespace crd::io {

enum class InputKind { Warc, Arc, PlainFile };

struct InputFile {
  std::string path;       // as opened
  std::string url;        // for PlainFile: path relative to the directory given (or the path itself)
  std::uint64_t size = 0; // bytes on disk
  InputKind kind = InputKind::PlainFile;
};

// Expands files, directories (recursive, sorted by path bytes, symlinks to files followed once,
// archives inside read as archives) and @LIST files. Every rank calls this on the same arguments
// and gets the same list. Unreadable or missing inputs are counted ("skipped.input.missing") and
// left out; a missing @LIST file or an input list with no files at all throws UsageError.
std::vector<InputFile> expand_inputs(const std::vector<std::string>& args, Counters& counters);

// Assigns files to ranks: largest first, each to the least-loaded rank (ties → lowest rank).
// Returns, for each rank, the indices into `files` it reads, in ascending index order.
std::vector<std::vector<std::size_t>> assign_shards(const std::vector<InputFile>& files, int nranks);

// Reads one input file, calling on_document for each document in it. Bad records are skipped and
// counted by reason ("skipped.<reason>"); good ones are counted ("records", "documents").
// Never throws for bad content; an unreadable file is counted as "skipped.input.unreadable".
void read_input(const InputFile& file, Counters& counters,
                const std::function<void(Document&&)>& on_document);

}  // namespace crd::io
