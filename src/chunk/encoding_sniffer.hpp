// HTML5 encoding sniffing: which encoding a page's bytes are in (internal).
#pragma once

#include <cstddef>
#include <string_view>

namespace crd::chunk::detail {

// The prescan looks at no more than this many bytes (the HTML standard's bound; browsers use it).
inline constexpr std::size_t kPrescanBytes = 1024;

struct SniffedEncoding {
  std::string_view encoding;  // a WHATWG encoding name (encoding_labels.hpp); "utf-8" by default
  std::size_t bom_bytes = 0;  // length of the byte-order mark that decided it (not text)
};

// The HTML standard's encoding sniffing, in its order: a byte-order mark; else the HTTP
// header's charset label, if it names an encoding; else a <meta> charset found by the prescan
// of the first kPrescanBytes bytes; else UTF-8 (crd's default: undecodable bytes become U+FFFD).
SniffedEncoding sniff_encoding(std::string_view page, std::string_view http_charset);

// The standard's "prescan a byte stream to determine its encoding" over `head` (the caller
// bounds it): the encoding a <meta charset> or <meta http-equiv=content-type content=...>
// names, with UTF-16 read as UTF-8 and x-user-defined as windows-1252; "" if none does.
std::string_view prescan_meta_encoding(std::string_view head);

}  // namespace crd::chunk::detail
