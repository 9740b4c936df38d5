// Stop-list loading.
#include "crd/discover/label_rules.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "crd/base/error.hpp"
#include "crd/base/human_bytes.hpp"
#include "crd/hash/sha1.hpp"

namespace crd::discover {

namespace {

// A stop line is one chunk; the cap keeps --stop-chunks /dev/zero (one endless line) from reading
// until memory runs out.
constexpr std::size_t kMaxLineBytes = 16u << 20;
constexpr std::size_t kBlockBytes = 1u << 20;
constexpr std::size_t kHexLineBytes = 41;  // 40 hex digits and a newline: the usual line

std::string too_long(const std::string& path) {
  return "stop list '" + path + "': a line longer than " + human_bytes(kMaxLineBytes);
}

// Calls line(text) for every line of the file, without its '\n', read a block at a time (a
// 10^7-line list is 410 MB: a byte-at-a-time read took most of a 35 s load).
template <class Line>
void for_each_line(std::istream& in, const std::string& path, const Line& line) {
  std::vector<char> block(kBlockBytes);
  std::string carry;  // the start of a line that continues in the next block
  while (true) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    const char* p = block.data();
    const char* const end = p + got;
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      const char* stop = nl != nullptr ? nl : end;
      if (carry.size() + static_cast<std::size_t>(stop - p) > kMaxLineBytes) throw UsageError(too_long(path));
      if (nl == nullptr) {
        carry.append(p, end);
        break;
      }
      if (carry.empty()) {
        line(std::string_view(p, static_cast<std::size_t>(nl - p)));
      } else {
        carry.append(p, nl);
        line(std::string_view(carry));
        carry.clear();
      }
      p = nl + 1;
    }
  }
  if (in.bad()) throw UsageError("cannot read stop list '" + path + "'");
  if (!carry.empty()) line(std::string_view(carry));
}

}  // namespace

StopList StopList::from_digests(std::vector<Digest> hashes) {
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  if (hashes.size() > UINT32_MAX) throw UsageError("stop list: more than 2^32 entries");
  StopList list;
  list.hashes_ = std::move(hashes);
  list.starts_.assign(65537, 0);
  for (const Digest& d : list.hashes_) ++list.starts_[bucket(d) + 1];
  for (std::size_t b = 1; b < list.starts_.size(); ++b) list.starts_[b] += list.starts_[b - 1];
  return list;
}

StopList StopList::load(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw UsageError("stop list '" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read stop list '" + path + "'");
  // Sized for a list of hex lines, so a large list never doubles its vector (peak = 1×, not 3×).
  const auto bytes = std::filesystem::file_size(path, ec);
  std::vector<Digest> hashes;
  if (!ec) hashes.reserve(static_cast<std::size_t>(bytes / kHexLineBytes) + 1);
  std::string normalized;
  for_each_line(in, path, [&](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') return;
    if (auto d = digest_from_hex(line)) {
      hashes.push_back(*d);
      return;
    }
    normalized.clear();
    chunk::normalize_whitespace(line, normalized);
    if (!normalized.empty()) hashes.push_back(sha1(normalized));
  });
  return from_digests(std::move(hashes));
}

StopItems::StopItems(const std::string& list_path, std::uint64_t min_chunk_length)
    : list_(list_path.empty() ? nullptr : std::make_unique<const StopList>(StopList::load(list_path))),
      min_chunk_length_(min_chunk_length) {}

std::vector<std::uint8_t> stop_flags(const LocalTally& chunks, const LabelRules& rules) {
  std::vector<std::uint8_t> stop(chunks.distinct(), 0);
  for (std::uint32_t id = 0; id < chunks.distinct(); ++id)
    stop[id] = rules.is_stop(chunks.digest(id), chunks.length(id)) ? 1 : 0;
  return stop;
}

}  // namespace crd::discover
