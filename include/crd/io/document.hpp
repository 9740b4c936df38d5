// Document: one page (or file) as the readers hand it to the pipeline, payload already decoded.
#pragma once

#include <cstdint>
#include <string>

namespace crd::io {

struct Document {
  std::string url;           // WARC-Target-URI, ARC URL, or path relative to the directory given
  std::string content_type;  // lowercased media type without parameters ("text/html"); "" if unknown
  std::string charset;       // lowercased charset parameter from the HTTP header, "" if none
  std::string body;          // payload: HTTP headers stripped, chunked and gzip/deflate decoded
  std::string source;        // path of the file it came from
  std::uint64_t offset = 0;  // byte offset of its record in that file (0 for plain files)
};

// Which documents get chunked (text/html, application/xhtml+xml, text/plain); every document is
// file-hashed whatever its type. Uses content_type if set, else sniffs the first bytes of body.
bool is_chunkable(const Document& doc);

}  // namespace crd::io
