// Stop-list loading.
#include "crd/discover/label_rules.hpp"

#include <filesystem>
#include <fstream>

#include "crd/chunk/chunker.hpp"
#include "crd/base/error.hpp"
#include "crd/hash/sha1.hpp"

namespace crd::discover {

namespace {

// A stop line is one chunk; the cap keeps --stop-chunks /dev/zero (one endless line) from reading
// until memory runs out.
constexpr std::size_t kMaxLineBytes = 16u << 20;

// std::getline that refuses a line longer than kMaxLineBytes.
bool read_line(std::istream& in, std::string& line, const std::string& path) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc()) {
    if (c == '\n') return true;
    if (line.size() == kMaxLineBytes)
      throw UsageError("stop list '" + path + "': a line longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB");
    line += static_cast<char>(c);
  }
  return !line.empty();
}

}  // namespace

StopList StopList::load(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw UsageError("stop list '" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read stop list '" + path + "'");
  StopList list;
  std::string line;
  std::string normalized;
  while (read_line(in, line, path)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    if (auto d = digest_from_hex(line)) {
      list.add(*d);
      continue;
    }
    normalized.clear();
    chunk::normalize_whitespace(line, normalized);
    if (!normalized.empty()) list.add(sha1(normalized));
  }
  return list;
}

StopItems::StopItems(const std::string& list_path, std::uint64_t min_chunk_length)
    : list_(list_path.empty() ? nullptr : std::make_unique<const StopList>(StopList::load(list_path))),
      min_chunk_length_(min_chunk_length) {}

}  // namespace crd::discover
