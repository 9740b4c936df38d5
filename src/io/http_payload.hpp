// HTTP payload decoding shared by the WARC and ARC readers: status line and headers, chunked
// transfer encoding, gzip/deflate content encoding, media type and charset.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

// Parses an HTTP response, keeps only 2xx, strips the headers, undoes chunked transfer encoding
// and gzip/x-gzip/deflate content encoding, and fills doc.body, doc.content_type, doc.charset.
// Decoded bodies larger than max_bytes are refused ("record_too_large"). `note` is set to
// "http.chunked_already_decoded" when the header says chunked but the body was stored decoded.
PayloadOutcome decode_http_response(std::string_view block, std::uint64_t max_bytes, Document& doc,
                                    std::string_view* note = nullptr);

}  // namespace crd::io::detail
