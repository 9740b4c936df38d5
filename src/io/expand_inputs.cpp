// expand_inputs: command-line inputs (files, directories, @LIST files) → a deterministic file list.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unordered_set>

#include "byte_stream.hpp"
#include "crd/core/error.hpp"
#include "crd/io/inputs.hpp"
#include "arc_reader.hpp"
#include "warc_reader.hpp"

namespace crd::io {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxListDepth = 8;

bool iends_with(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

std::optional<InputKind> kind_from_name(std::string_view path) {
  if (iends_with(path, ".warc") || iends_with(path, ".warc.gz")) return InputKind::Warc;
  if (iends_with(path, ".arc") || iends_with(path, ".arc.gz")) return InputKind::Arc;
  return std::nullopt;
}

// Files named otherwise but holding an archive (gzipped or not) are still read as archives.
InputKind sniff_kind(const std::string& path) {
  detail::ByteStream in;
  if (!in.open(path)) return InputKind::PlainFile;
  std::string_view head(in.data(), in.fill(16));
  if (detail::looks_like_warc(head)) return InputKind::Warc;
  if (detail::looks_like_arc(head)) return InputKind::Arc;
  return InputKind::PlainFile;
}

class Expander {
 public:
  explicit Expander(Counters& counters) : counters_(counters) {}

  void add_arg(const std::string& arg, int depth) {
    if (!arg.empty() && arg[0] == '@') {
      add_list(arg.substr(1), depth);
    } else {
      add_path(arg);
    }
  }

  std::vector<InputFile> take() { return std::move(files_); }

 private:
  void add_list(const std::string& list, int depth) {
    if (depth >= kMaxListDepth) throw UsageError("input lists nested more than 8 deep at @" + list);
    std::ifstream in(list);
    if (!in) throw UsageError("cannot read input list @" + list);
    fs::path base = fs::path(list).parent_path();
    std::string line;
    while (std::getline(in, line)) {
      std::string_view v = line;
      while (!v.empty() && (v.back() == '\r' || v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      if (v.empty() || v.front() == '#') continue;
      bool nested = v.front() == '@';
      fs::path p(v.substr(nested ? 1 : 0));
      if (p.is_relative() && !base.empty()) p = base / p;
      add_arg((nested ? "@" : "") + p.string(), depth + 1);
    }
  }

  void add_path(const std::string& path) {
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);  // follows a symlink given directly
    if (ec || !fs::exists(st)) {
      counters_.add("skipped.input.missing");
      return;
    }
    if (fs::is_directory(st)) {
      walk(path);
    } else if (fs::is_regular_file(st)) {
      auto kind = kind_from_name(path);
      add_file(path, path, kind ? *kind : sniff_kind(path));
    } else {
      counters_.add("skipped.input.not_regular");
    }
  }

  void walk(const std::string& dir) {
    struct Entry {
      std::string rel;
      std::string path;
      std::uint64_t size;
    };
    std::vector<Entry> found;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
      counters_.add("skipped.input.unreadable");
      return;
    }
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) {
        counters_.add("skipped.input.unreadable");
        break;
      }
      const fs::directory_entry& e = *it;
      std::error_code sec;
      if (e.is_symlink(sec)) {
        fs::file_status target = fs::status(e.path(), sec);
        if (sec || !fs::exists(target)) {
          counters_.add("skipped.input.missing");  // dangling link
          continue;
        }
        if (fs::is_directory(target)) {
          counters_.add("skipped.input.dir_symlink");  // not followed: cycles, double counting
          continue;
        }
        if (!fs::is_regular_file(target)) continue;
      } else if (!e.is_regular_file(sec)) {
        continue;
      }
      const std::uint64_t size = e.file_size(sec);  // the one stat this file needs
      if (sec) {
        counters_.add("skipped.input.unreadable");
        continue;
      }
      found.push_back(Entry{e.path().lexically_relative(dir).generic_string(), e.path().string(), size});
    }
    std::sort(found.begin(), found.end(), [](const Entry& a, const Entry& b) { return a.rel < b.rel; });
    // The directory is made absolute once; a file's duplicate key is that plus its relative path
    // (fs::absolute per file costs a getcwd each: 18% of a large walk).
    std::error_code aec;
    const fs::path abs_dir = fs::absolute(dir, aec).lexically_normal();
    for (Entry& e : found) {
      auto kind = kind_from_name(e.path);
      std::string key = aec ? fs::path(e.path).lexically_normal().string() : (abs_dir / e.rel).string();
      add_file(e.path, e.rel, kind ? *kind : InputKind::PlainFile, std::move(key), e.size);
    }
  }

  void add_file(const std::string& path, const std::string& url, InputKind kind) {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    std::string key = (ec ? fs::path(path) : abs).lexically_normal().string();
    const std::uint64_t size = fs::file_size(path, ec);
    if (ec) {
      counters_.add("skipped.input.unreadable");
      return;
    }
    add_file(path, url, kind, std::move(key), size);
  }

  void add_file(const std::string& path, const std::string& url, InputKind kind, std::string key, std::uint64_t size) {
    if (!seen_.insert(std::move(key)).second) {
      counters_.add("skipped.input.duplicate");
      return;
    }
    files_.push_back(InputFile{path, url, size, kind});
  }

  Counters& counters_;
  std::vector<InputFile> files_;
  std::unordered_set<std::string> seen_;
};

}  // namespace

std::vector<InputFile> expand_inputs(const std::vector<std::string>& args, Counters& counters) {
  Expander ex(counters);
  for (const std::string& a : args) ex.add_arg(a, 0);
  std::vector<InputFile> files = ex.take();
  if (files.empty()) {
    std::string given;
    for (const std::string& a : args) given += (given.empty() ? "" : " ") + a;
    throw UsageError("no input files found in: " + (given.empty() ? std::string("(no inputs given)") : given));
  }
  return files;
}

}  // namespace crd::io
