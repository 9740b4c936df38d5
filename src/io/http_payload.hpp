// HTTP payload decoding shared by the WARC and ARC readers: status line and headers, chunked
// transfer encoding, gzip/deflate content encoding, media type and charset.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "crd/io/document.hpp"

namespace crd::io::detail {

// Why a payload produced no document. `reason` is a counter suffix ("http.non_2xx"); `is_error`
// tells bad input (reported) from ordinary crawl content that is skipped by design.
struct PayloadOutcome {
  std::string_view reason;  // empty: the document was filled in
  bool is_error = false;
  bool ok() const { return reason.empty(); }
};

// Splits a Content-Type value into lowercased media type (no parameters) and charset.
void parse_media_type(std::string_view value, std::string& type, std::string& charset);

// True when the bytes start like an HTTP response ("HTTP/").
bool looks_like_http_response(std::string_view block);

// Parses an HTTP response, keeps only 2xx (after any 1xx interim responses), strips the headers,
// undoes the transfer codings (chunked, gzip, deflate) and then the content codings, each list
// last applied first, and fills doc.body, doc.content_type, doc.charset. Decoded bodies larger
// than max_bytes are refused ("record_too_large"). `truncated`: the record says it was cut
// (WARC-Truncated), so a chunked body that stops short is kept as received. `notes` gets what is
// worth counting but loses nothing: "http.chunked_already_decoded" (header says chunked, body
// stored decoded), "http.encoding_already_decoded" (says gzip, no gzip magic: stored decoded),
// "http.unknown_encoding_as_identity" ("none", "UTF-8": no compression, read as is),
// "http.truncated_body_kept", "http.interim_response" (a "100 Continue" before the response).
PayloadOutcome decode_http_response(std::string_view block, std::uint64_t max_bytes, Document& doc,
                                    std::vector<std::string_view>* notes = nullptr, bool truncated = false);

}  // namespace crd::io::detail
