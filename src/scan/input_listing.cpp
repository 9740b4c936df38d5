// Listing the inputs across ranks: walking a tree of many small files is mostly system calls
// (readdir and a stat per file), and done by rank 0 alone it was the largest serial part of a
// 2-rank job (0.1–0.15 s of 2.3 s on 55k files).
#include "crd/scan/input_listing.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "crd/base/error.hpp"
#include "crd/shuffle/byte_codec.hpp"

namespace crd::scan {
namespace {

// Rank 0 leads the expansion and tells the other ranks what comes next.
enum class Step : std::uint8_t { Walk = 1, Done = 2, Failed = 3 };

std::string_view as_view(const shuffle::ByteWriter& w) {
  const auto bytes = w.bytes();
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

shuffle::ByteReader reader_of(const std::string& s) {
  return shuffle::ByteReader(std::as_bytes(std::span<const char>(s.data(), s.size())));
}

bool by_path(const io::WalkedEntry& a, const io::WalkedEntry& b) { return a.rel < b.rel; }

void write_entries(shuffle::ByteWriter& w, const std::vector<io::WalkedEntry>& entries) {
  for (const io::WalkedEntry& e : entries) w.str(e.rel).pod(e.size);
}

std::vector<io::WalkedEntry> read_entries(shuffle::ByteReader& r) {
  std::vector<io::WalkedEntry> out;
  while (!r.done()) {
    io::WalkedEntry e;
    e.rel = std::string(r.str());
    e.size = r.pod<std::uint64_t>();
    out.push_back(std::move(e));
  }
  return out;
}

// The list as rank 0 sends it. A walked file's path is its directory's path followed by its url,
// and the files of one directory come one after another: the directory part is sent once per run
// (the message was 8 MB on 55k files, its encoding and decoding a third of the listing's time).
enum : std::uint8_t { kKindBits = 3, kSameHead = 4, kPathApart = 8 };

void write_list(shuffle::ByteWriter& w, const std::vector<io::InputFile>& files) {
  std::size_t bytes = 8;
  for (const auto& f : files) bytes += f.url.size() + 4 + 8 + 1;
  w.reserve(bytes + 4096);
  w.pod(static_cast<std::uint64_t>(files.size()));
  std::string_view previous_head;
  bool have_head = false;
  for (const auto& f : files) {
    auto flags = static_cast<std::uint8_t>(f.kind);
    const std::string_view path = f.path;
    if (!path.ends_with(f.url)) {
      w.pod(static_cast<std::uint8_t>(flags | kPathApart)).str(f.path).str(f.url).pod(f.size);
      continue;
    }
    const std::string_view head = path.substr(0, path.size() - f.url.size());
    if (have_head && head == previous_head) {
      w.pod(static_cast<std::uint8_t>(flags | kSameHead));
    } else {
      w.pod(flags).str(head);
      previous_head = head;
      have_head = true;
    }
    w.str(f.url).pod(f.size);
  }
}

std::vector<io::InputFile> read_list(shuffle::ByteReader& r) {
  std::vector<io::InputFile> files(static_cast<std::size_t>(r.pod<std::uint64_t>()));
  std::string head;
  for (auto& f : files) {
    const auto flags = r.pod<std::uint8_t>();
    f.kind = static_cast<io::InputKind>(flags & kKindBits);
    if ((flags & kPathApart) != 0) {
      f.path = std::string(r.str());
      f.url = std::string(r.str());
    } else {
      if ((flags & kSameHead) == 0) head = std::string(r.str());
      f.url = std::string(r.str());
      f.path.reserve(head.size() + f.url.size());
      f.path.append(head).append(f.url);
    }
    f.size = r.pod<std::uint64_t>();
  }
  return files;
}

// What an input left out by name is, in words, for the warning; the reason itself is in /run/errors.
const char* left_out_because(std::string_view reason) {
  if (reason == "input.missing") return "not found";
  if (reason == "input.unreadable") return "cannot be read";
  if (reason == "input.not_regular") return "not a regular file or directory";
  if (reason == "input.unsupported_compression")
    return "compressed with bzip2, xz, zstd or lz4, which crd does not read (recompress it with gzip)";
  return "skipped";
}

// Inputs a run goes on without are said on stderr too, not only in the result: at most a few lines.
void warn_left_out(const io::InputLog& log) {
  constexpr std::size_t kShown = 10;
  const std::size_t shown = std::min(log.errors.size(), kShown);
  for (std::size_t i = 0; i < shown; ++i) {
    const io::ReadError& e = log.errors[i];
    std::fprintf(stderr, "crd: warning: left out %s: %s (%s)\n", e.file.c_str(), left_out_because(e.reason),
                 e.reason.c_str());
  }
  if (log.errors.size() > shown)
    std::fprintf(stderr, "crd: warning: %zu more inputs left out (listed in /run/errors)\n", log.errors.size() - shown);
  std::fflush(stderr);
}

}  // namespace

std::vector<io::WalkedEntry> shared_walk(comm::Transport& transport, const std::string& root, io::InputLog& log) {
  const auto rank = static_cast<std::size_t>(transport.rank());
  std::vector<io::WalkedEntry> mine;
  std::vector<io::WalkedEntry> level{{"", 0}};
  // Every rank holds the same level, so all leave the loop after the same round. A level's
  // directories are dealt out by their own size, which grows with their entries: dealt out by
  // count, one rank got 8,596 files of a level and the other 869.
  while (!level.empty()) {
    std::vector<std::uint64_t> sizes;
    for (const io::WalkedEntry& d : level) sizes.push_back(d.size);
    const auto dealt = io::assign_by_size(sizes, transport.size());
    std::vector<std::string> share;
    for (std::size_t i : dealt[rank]) share.push_back(std::move(level[i].rel));
    io::DirectoryRound round = io::read_directories(root, share, log);
    mine.insert(mine.end(), std::make_move_iterator(round.files.begin()), std::make_move_iterator(round.files.end()));
    shuffle::ByteWriter w;
    write_entries(w, round.subdirs);
    std::vector<std::byte> all;
    std::vector<std::uint64_t> counts;
    transport.allgatherv(w.bytes(), all, counts);
    shuffle::ByteReader r(all);
    level = read_entries(r);
  }
  // Each rank sorts its own files and rank 0 merges the sorted runs: the sort is shared too.
  std::sort(mine.begin(), mine.end(), by_path);
  // A gather to rank 0 that keeps each rank's share apart (an alltoallv sending only to rank 0).
  shuffle::ByteWriter w;
  write_entries(w, mine);
  std::vector<std::uint64_t> to(static_cast<std::size_t>(transport.size()), 0);
  to[0] = w.bytes().size();
  std::vector<std::byte> gathered;
  std::vector<std::uint64_t> from;
  transport.alltoallv(w.bytes(), to, gathered, from);
  std::vector<io::WalkedEntry> files;
  std::size_t at = 0;
  for (const std::uint64_t bytes : from) {
    shuffle::ByteReader r(std::span<const std::byte>(gathered).subspan(at, bytes));
    at += bytes;
    const auto middle = static_cast<std::ptrdiff_t>(files.size());
    for (auto& e : read_entries(r)) files.push_back(std::move(e));
    std::inplace_merge(files.begin(), files.begin() + middle, files.end(), by_path);
  }
  return files;
}

std::vector<io::InputFile> expand_everywhere(comm::Transport& transport, const std::vector<std::string>& inputs,
                                             const io::ExpandOptions& options, io::InputLog& log) {
  if (transport.size() == 1) {
    auto files = io::expand_inputs(inputs, options, log);
    warn_left_out(log);
    return files;
  }
  if (transport.rank() == 0) {
    shuffle::ByteWriter last;
    std::vector<io::InputFile> files;
    try {
      files = io::expand_inputs(inputs, options, log, [&](const std::string& root, io::InputLog& l) {
        shuffle::ByteWriter step;
        step.pod(Step::Walk).str(root);
        transport.from_rank0(as_view(step));
        return shared_walk(transport, root, l);
      });
      last.pod(Step::Done);
      write_list(last, files);
    } catch (const UsageError& e) {
      transport.from_rank0(as_view(shuffle::ByteWriter().pod(Step::Failed).str(e.what())));
      throw;
    }
    transport.from_rank0(as_view(last));
    warn_left_out(log);
    return files;
  }
  for (;;) {
    const std::string message = transport.from_rank0({});
    shuffle::ByteReader r = reader_of(message);
    const auto step = r.pod<Step>();
    if (step == Step::Walk) {
      shared_walk(transport, std::string(r.str()), log);
      continue;
    }
    if (step == Step::Failed) throw UsageError(std::string(r.str()));
    return read_list(r);
  }
}

}  // namespace crd::scan
