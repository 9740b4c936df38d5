// expand_inputs: command-line inputs (files, directories, @LIST files) → a deterministic file list.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <optional>
#include <unordered_set>

#include "ascii.hpp"
#include "byte_stream.hpp"
#include "compression_magic.hpp"
#include "crd/base/error.hpp"
#include "crd/io/inputs.hpp"
#include "arc_reader.hpp"
#include "input_list.hpp"
#include "warc_reader.hpp"

namespace crd::io {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxListDepth = 8;

std::optional<InputKind> kind_from_name(std::string_view path) {
  using detail::iends_with;
  if (iends_with(path, ".warc") || iends_with(path, ".warc.gz")) return InputKind::Warc;
  if (iends_with(path, ".arc") || iends_with(path, ".arc.gz")) return InputKind::Arc;
  return std::nullopt;
}

// What a named file's first bytes say. Files named otherwise but holding an archive (gzipped or
// not) are still read as archives. Only the first bytes are looked at, so the stream is opened
// with small buffers; it passes bytes that are not gzip through as they are, so a compression crd
// does not read shows its own magic.
struct Sniffed {
  InputKind kind = InputKind::PlainFile;
  bool unsupported_compression = false;
};
Sniffed sniff(const std::string& path) {
  detail::ByteStream in;
  if (!in.open(path, detail::StreamSizes::peek())) return {};
  std::string_view head(in.data(), in.fill(16));
  if (detail::looks_like_warc(head)) return {InputKind::Warc};
  if (detail::looks_like_arc(head)) return {InputKind::Arc};
  return {InputKind::PlainFile, !detail::unsupported_compression(head).empty()};
}

// The path of an entry found under `root`, as the user would write it.
std::string under(const std::string& root, std::string_view rel) {
  std::string path = root;
  if (path.empty() || path.back() != '/') path += '/';
  path.append(rel);
  return path;
}

class Expander {
 public:
  // Repeats can only come from a second input: one directory's walk visits each path once (links
  // to directories are not followed). With a single plain argument the duplicate keys (an absolute
  // path and a hash-set node per file, a third of the walk's time) are skipped.
  Expander(const ExpandOptions& options, InputLog& log, bool may_repeat, const DirectoryWalk& walk)
      : options_(options), log_(log), may_repeat_(may_repeat), walk_(walk) {}

  // `origin` says where a listed input came from, for the error naming it ("" on the command line).
  void add_arg(const std::string& arg, int depth, const std::string& origin = {}) {
    if (!arg.empty() && arg[0] == '@') {
      add_list(arg.substr(1), depth);
    } else {
      add_path(arg, origin);
    }
  }

  std::vector<InputFile> take() { return std::move(files_); }

 private:
  void add_list(const std::string& list, int depth) {
    if (depth >= kMaxListDepth) throw UsageError("input lists nested more than 8 deep at @" + list);
    if (options_.check_named) options_.check_named(list, false);
    const fs::path base = fs::path(list).parent_path();
    detail::read_input_list(list, [&](std::string_view v, std::size_t number) {
      while (!v.empty() && (v.back() == '\r' || v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      if (v.empty() || v.front() == '#') return;
      bool nested = v.front() == '@';
      fs::path p(v.substr(nested ? 1 : 0));
      if (p.is_relative() && !base.empty()) p = base / p;
      add_arg((nested ? "@" : "") + p.string(), depth + 1, "@" + list + " line " + std::to_string(number));
    });
  }

  void add_path(const std::string& path, const std::string& origin) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {  // follows a symlink given directly
      const int err = errno;
      // A typo must not shrink a corpus unnoticed: only --skip-missing lets the run go on.
      if (!options_.skip_missing)
        throw UsageError("input " + path + (origin.empty() ? "" : " (" + origin + ")") + ": " +
                         std::strerror(err) + (options_.offers_skip_missing ? " (--skip-missing runs without it)" : ""));
      log_.fail(path, err == ENOENT || err == ENOTDIR ? "input.missing" : "input.unreadable");
      return;
    }
    if (S_ISDIR(st.st_mode)) {
      if (options_.check_named) options_.check_named(path, true);
      add_walk(path);
    } else if (!S_ISREG(st.st_mode)) {
      log_.fail(path, "input.not_regular");  // never opened: a fifo would block, a device not end
    } else if (detail::names_compressed_archive(path)) {
      log_.fail(path, "input.unsupported_compression");
    } else if (auto kind = kind_from_name(path)) {
      add_file(path, path, *kind, static_cast<std::uint64_t>(st.st_size));
    } else if (const Sniffed found = sniff(path); found.unsupported_compression) {
      log_.fail(path, "input.unsupported_compression");
    } else {
      add_file(path, path, found.kind, static_cast<std::uint64_t>(st.st_size));
    }
  }

  void add_walk(const std::string& dir) {
    std::vector<WalkedEntry> found = walk_(dir, log_);
    const auto by_path = [](const WalkedEntry& a, const WalkedEntry& b) { return a.rel < b.rel; };
    if (!std::is_sorted(found.begin(), found.end(), by_path)) std::sort(found.begin(), found.end(), by_path);
    // The directory is made absolute once; a file's duplicate key is that plus its relative path.
    // Relative paths from readdir hold no "." or "..": plain concatenation keeps them normal.
    std::error_code aec;
    std::string abs_dir = fs::absolute(dir, aec).lexically_normal().string();
    if (aec) abs_dir = fs::path(dir).lexically_normal().string();
    if (abs_dir.empty() || abs_dir.back() != '/') abs_dir += '/';
    files_.reserve(files_.size() + found.size());
    for (WalkedEntry& f : found) {
      std::string key = may_repeat_ ? abs_dir + f.rel : std::string();
      std::optional<InputFile> file = walked_input(dir, std::move(f), log_);
      if (file) add_file(std::move(file->path), std::move(file->url), file->kind, std::move(key), file->size);
    }
  }

  // A file given directly, of the size its one stat found.
  void add_file(const std::string& path, const std::string& url, InputKind kind, std::uint64_t size) {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    std::string key = (ec ? fs::path(path) : abs).lexically_normal().string();
    add_file(path, url, kind, std::move(key), size);
  }

  void add_file(std::string path, std::string url, InputKind kind, std::string key, std::uint64_t size) {
    if (may_repeat_ && !seen_.insert(std::move(key)).second) {
      log_.skip("input.duplicate");
      return;
    }
    files_.push_back(InputFile{std::move(path), std::move(url), size, kind});
  }

  const ExpandOptions& options_;
  InputLog& log_;
  const bool may_repeat_;
  const DirectoryWalk& walk_;
  std::vector<InputFile> files_;
  std::unordered_set<std::string> seen_;
};

// One directory's entries: files with their sizes (stat relative to the open directory, which
// skips the path lookup a stat by full path repeats per file), subdirectories for the next round.
void read_directory(DIR* d, const std::string& root, const std::string& rel_dir, DirectoryRound& out, InputLog& log,
                    EntrySlice slice) {
  const int dfd = ::dirfd(d);
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == ".." || !slice.takes(name)) continue;
    std::string rel;
    rel.reserve(rel_dir.size() + 1 + name.size());
    if (!rel_dir.empty()) rel.append(rel_dir).push_back('/');
    rel.append(name);
    const unsigned char type = e->d_type;
    if (type != DT_REG && type != DT_DIR && type != DT_LNK && type != DT_UNKNOWN) {
      log.skip("input.not_regular");  // fifos, sockets, devices: never opened (a fifo would block)
      continue;
    }
    // One stat gives the size, and for links and file systems without d_type, the type too.
    struct stat st {};
    bool link = type == DT_LNK;
    int rc = ::fstatat(dfd, e->d_name, &st, link ? 0 : AT_SYMLINK_NOFOLLOW);
    if (rc == 0 && S_ISLNK(st.st_mode)) {  // found out by the stat (DT_UNKNOWN)
      link = true;
      rc = ::fstatat(dfd, e->d_name, &st, 0);
    }
    if (rc != 0) {  // gone since readdir, or a dangling link
      log.fail(under(root, rel), errno == ENOENT ? "input.missing" : "input.unreadable");
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      if (link) {
        log.skip("input.dir_symlink");  // not followed: cycles, double counting
      } else {
        out.subdirs.push_back(WalkedEntry{std::move(rel), static_cast<std::uint64_t>(st.st_size)});
      }
      continue;
    }
    if (!S_ISREG(st.st_mode)) {  // a link to a fifo, a DT_UNKNOWN socket, …
      log.skip("input.not_regular");
      continue;
    }
    out.files.push_back(WalkedEntry{std::move(rel), static_cast<std::uint64_t>(st.st_size)});
  }
}

// No files at all is a usage error.
void require_inputs(const std::vector<InputFile>& files, const std::vector<std::string>& args, const InputLog& log) {
  if (files.empty()) throw UsageError(no_inputs_message(args, log));
}

}  // namespace

// Directories are opened from the root's descriptor, not by full path and not one descriptor per
// level, so deep trees neither repeat the path lookup nor hold a descriptor per level.
// std::hash of the same bytes is the same in every rank: they run one binary.
bool EntrySlice::takes(std::string_view name) const {
  return count <= 1 || std::hash<std::string_view>{}(name) % count == index;
}

DirectoryRound read_directories(const std::string& root, std::span<const std::string> rel_dirs, InputLog& log,
                                EntrySlice slice) {
  DirectoryRound out;
  if (rel_dirs.empty()) return out;
  const int root_fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (const std::string& rel_dir : rel_dirs) {
    int fd = -1;
    if (root_fd >= 0)
      fd = rel_dir.empty() ? ::dup(root_fd)
                           : ::openat(root_fd, rel_dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR* d = fd < 0 ? nullptr : ::fdopendir(fd);
    if (d == nullptr) {
      if (fd >= 0) ::close(fd);
      if (slice.index == 0) log.fail(rel_dir.empty() ? root : under(root, rel_dir), "input.unreadable");  // once
      continue;
    }
    read_directory(d, root, rel_dir, out, log, slice);
    ::closedir(d);
  }
  if (root_fd >= 0) ::close(root_fd);
  return out;
}

std::vector<WalkedEntry> walk_directory(const std::string& root, InputLog& log) {
  std::vector<WalkedEntry> files;
  std::vector<std::string> level{""};
  while (!level.empty()) {
    DirectoryRound round = read_directories(root, level, log);
    files.insert(files.end(), std::make_move_iterator(round.files.begin()), std::make_move_iterator(round.files.end()));
    level.clear();
    for (WalkedEntry& d : round.subdirs) level.push_back(std::move(d.rel));
  }
  return files;
}

void InputLog::skip(std::string_view reason) {
  std::string name = "skipped.";
  name.append(reason);
  counters.add(name);
}

void InputLog::fail(std::string_view path, std::string_view reason) {
  skip(reason);
  errors.push_back(ReadError{std::string(path), 0, std::string(reason)});
}

bool gzip_named(const InputFile& file) {
  return file.kind != InputKind::PlainFile && detail::iends_with(file.path, ".gz");
}

std::optional<InputFile> walked_input(const std::string& dir, WalkedEntry&& entry, InputLog& log) {
  std::string path = dir;
  if (path.empty() || path.back() != '/') path += '/';
  path += entry.rel;
  if (detail::names_compressed_archive(path)) {
    log.fail(path, "input.unsupported_compression");
    return std::nullopt;
  }
  const auto kind = kind_from_name(path);
  return InputFile{std::move(path), std::move(entry.rel), entry.size, kind ? *kind : InputKind::PlainFile};
}

std::string no_inputs_message(const std::vector<std::string>& args, const InputLog& log) {
  std::string given;
  for (const std::string& a : args) given += (given.empty() ? "" : " ") + a;
  std::string why;
  if (!log.errors.empty()) {
    why = " (" + std::to_string(log.errors.size()) + " left out, first " + log.errors.front().file + ": " +
          log.errors.front().reason + ")";
  }
  return "no input files found in: " + (given.empty() ? std::string("(no inputs given)") : given) + why;
}

std::vector<InputFile> expand_inputs(const std::vector<std::string>& args, const ExpandOptions& options,
                                     InputLog& log, const DirectoryWalk& walk) {
  Expander ex(options, log, args.size() > 1 || (args.size() == 1 && !args[0].empty() && args[0][0] == '@'), walk);
  for (const std::string& a : args) ex.add_arg(a, 0);
  std::vector<InputFile> files = ex.take();
  require_inputs(files, args, log);
  return files;
}

}  // namespace crd::io
