// Compressions crd does not read (bzip2, xz, zstd, lz4), told by their magic bytes or by an archive
// name that says so: such archives are refused by name instead of being hashed as one opaque
// document or read as garbage (docs/hostile-input.md says why they are not decompressed).
#pragma once

#include <string_view>

#include "ascii.hpp"

namespace crd::io::detail {

// The compression whose stream starts `head` ("bzip2", "xz", "zstd", "lz4"), or "" for none of
// them. gzip is not among them: crd reads it. bzip2 is told by its header and the magic of its
// first block (or of the end of an empty stream), so a text starting "BZh9" is not mistaken for it.
inline std::string_view unsupported_compression(std::string_view head) {
  if (head.size() >= 10 && head.starts_with("BZh") && head[3] >= '1' && head[3] <= '9' &&
      (head.substr(4, 6) == "\x31\x41\x59\x26\x53\x59" || head.substr(4, 6) == "\x17\x72\x45\x38\x50\x90"))
    return "bzip2";
  if (head.starts_with(std::string_view("\xFD" "7zXZ\0", 6))) return "xz";
  if (head.starts_with("\x28\xB5\x2F\xFD")) return "zstd";
  if (head.starts_with("\x04\x22\x4D\x18") || head.starts_with("\x02\x21\x4C\x18")) return "lz4";
  return {};
}

// True for an archive name with one of those compressions' suffixes: "x.warc.bz2", "x.arc.xz",
// "x.warc.zst", "x.WARC.LZ4", … (any case).
inline bool names_compressed_archive(std::string_view path) {
  for (std::string_view suffix : {".bz2", ".bzip2", ".xz", ".lzma", ".zst", ".zstd", ".lz4"}) {
    if (!iends_with(path, suffix)) continue;
    const std::string_view stem = path.substr(0, path.size() - suffix.size());
    return iends_with(stem, ".warc") || iends_with(stem, ".arc");
  }
  return false;
}

}  // namespace crd::io::detail
