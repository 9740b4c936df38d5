// Builds WARC/ARC bytes, HTTP responses and gzip members in memory for hand-made test archives.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "crd/base/counters.hpp"
#include "crd/io/inputs.hpp"

namespace crd::io::test {

std::string http_response(int status, const std::string& extra_headers, const std::string& body,
                          const std::string& content_type = "text/html; charset=UTF-8");

struct WarcRecordSpec {
  std::string type = "response";
  std::string uri = "http://example.org/";
  std::string block;
  std::string content_type = "application/http; msgtype=response";
  std::optional<std::string> length;  // Content-Length value to write instead of the true one
  bool omit_length = false;
  bool omit_type = false;
  bool block_digest = false;  // write WARC-Block-Digest: sha1:<base32 of the block's SHA-1>
};
std::string warc_record(const WarcRecordSpec& spec);
// A response record for `uri` whose HTTP body is `body`.
std::string warc_response(const std::string& uri, const std::string& body, int status = 200);

std::string gzip_member(const std::string& data);
// A gzip member of stored (uncompressed) deflate blocks: a byte changed inside the member changes
// the same byte of the decoded data, and the member then fails only its CRC.
std::string gzip_stored(const std::string& data);
std::string zlib_compress(const std::string& data, bool raw_deflate);
std::string chunked(const std::vector<std::string>& chunks);

std::string write_file(const std::string& dir, const std::string& name, const std::string& bytes);

// Everything read_input produced for one file.
struct ReadResult {
  std::vector<Document> docs;
  Counters counters;
  std::vector<ReadError> errors;
  std::uint64_t get(const std::string& name) const { return counters.get(name); }
  // Counters that start with "skipped.", without the prefix.
  std::map<std::string, std::uint64_t> skips() const;
};
ReadResult read_file(const std::string& path, InputKind kind = InputKind::Warc, const ReadOptions& options = {});

}  // namespace crd::io::test
