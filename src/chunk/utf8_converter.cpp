// Charset conversion with glibc iconv; undecodable input becomes U+FFFD instead of an error.
#include "utf8_converter.hpp"

#include <cerrno>
#include <cstring>

namespace crd::chunk::detail {

namespace {

const iconv_t kNoConverter = reinterpret_cast<iconv_t>(-1);
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

bool is_utf8_label(std::string_view cs) {
  return cs.empty() || cs == "utf-8" || cs == "utf8" || cs == "unicode-1-1-utf-8";
}

// WHATWG's encoding standard decodes these labels as windows-1252 (browsers do; pages that say
// latin-1 routinely contain 0x80–0x9F quotes), so do we.
std::string iconv_name(std::string_view cs) {
  if (cs == "iso-8859-1" || cs == "iso8859-1" || cs == "latin1" || cs == "l1" ||
      cs == "us-ascii" || cs == "ascii") {
    return "WINDOWS-1252";
  }
  return std::string(cs);
}

}  // namespace

Utf8Converter::~Utf8Converter() {
  for (auto& [name, cd] : open_) {
    if (cd != kNoConverter) iconv_close(cd);
  }
}

iconv_t Utf8Converter::descriptor(std::string_view charset) {
  auto it = open_.find(charset);
  if (it == open_.end()) {
    // A failed open is remembered too, so an unknown label costs one lookup per page.
    iconv_t cd = iconv_open("UTF-8", iconv_name(charset).c_str());
    it = open_.emplace(std::string(charset), cd).first;
  }
  return it->second;
}

std::string_view Utf8Converter::to_utf8(std::string_view page, std::string_view charset) {
  // A byte-order mark names the encoding before any declared charset does (the WHATWG encoding
  // standard's BOM sniffing, as browsers do), and is not part of the text.
  if (page.starts_with("\xEF\xBB\xBF")) return page.substr(3);
  if (page.starts_with("\xFF\xFE")) {
    page.remove_prefix(2);
    charset = "utf-16le";
  } else if (page.starts_with("\xFE\xFF")) {
    page.remove_prefix(2);
    charset = "utf-16be";
  }
  if (is_utf8_label(charset) || page.empty()) return page;
  iconv_t cd = descriptor(charset);
  if (cd == kNoConverter) return page;  // unknown label: gumbo replaces what is not UTF-8
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // reset shift state left by the last page

  out_.resize(2 * page.size() + 16);
  char* in = const_cast<char*>(page.data());  // iconv's API is not const-correct; it only reads
  std::size_t in_left = page.size();
  std::size_t used = 0;
  while (in_left > 0) {
    char* out = out_.data() + used;
    std::size_t out_left = out_.size() - used;
    const std::size_t rc = iconv(cd, &in, &in_left, &out, &out_left);
    const int err = errno;
    used = out_.size() - out_left;
    if (rc != static_cast<std::size_t>(-1)) break;  // all input converted
    if (err == E2BIG || out_.size() - used < kReplacement.size()) {
      out_.resize(2 * out_.size());
      continue;
    }
    // EILSEQ: an undecodable byte; EINVAL: a sequence cut off by the end of the page. Either
    // way one replacement character stands for one byte, and conversion goes on after it.
    out_.replace(used, kReplacement.size(), kReplacement);
    used += kReplacement.size();
    ++in;
    --in_left;
  }
  return std::string_view(out_.data(), used);
}

}  // namespace crd::chunk::detail
