// Document: one page (or file) as the readers hand it to the pipeline, payload already decoded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace crd::io {

struct Document {
  std::string url;           // WARC-Target-URI, ARC URL, or path relative to the directory given
  std::string content_type;  // lowercased media type without parameters ("text/html"); "" if unknown
  std::string charset;       // lowercased charset parameter from the HTTP header, "" if none
  std::string body;          // payload: HTTP headers stripped, chunked and gzip/deflate decoded
  std::string source;        // path of the file it came from
  // Byte offset in `source` where its record starts; for gzip files, the offset of the gzip member
  // the record starts in (what CDX indexes store), so all records of a one-member file share 0.
  std::uint64_t offset = 0;
  // Offset of the record in the decompressed stream (equals `offset` for uncompressed files):
  // (source, stream_offset) identifies a record even in a one-member .warc.gz.
  std::uint64_t stream_offset = 0;
};

// Which documents get chunked (text/html, application/xhtml+xml, text/plain); every document is
// file-hashed whatever its type. Uses content_type if set, else sniffs the first bytes of body.
bool is_chunkable(const Document& doc);

// The sniffing half of is_chunkable, for an empty or application/octet-stream type: "text/html"
// for markup-looking bytes, "text/plain" for mostly printable UTF-8 without NULs, else "".
std::string_view sniff_media_type(std::string_view body);

// Media type implied by a file name's extension (.html/.htm → text/html, .xhtml →
// application/xhtml+xml, .txt → text/plain), "" otherwise. Case-insensitive.
std::string_view media_type_from_extension(std::string_view path);

}  // namespace crd::io
