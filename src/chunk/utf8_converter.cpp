// Charset conversion with glibc iconv after HTML5 sniffing; undecodable input becomes U+FFFD
// instead of an error.
#include "utf8_converter.hpp"

#include <cerrno>
#include <cstring>

#include "encoding_sniffer.hpp"

namespace crd::chunk::detail {

namespace {

const iconv_t kNoConverter = reinterpret_cast<iconv_t>(-1);
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// glibc's name for a WHATWG encoding, where they differ: the WHATWG encodings are the
// Windows supersets browsers decode (Shift_JIS as code page 932, EUC-KR as 949, Big5 with HKSCS).
std::string iconv_name(std::string_view encoding) {
  if (encoding == "iso-8859-8-i") return "ISO-8859-8";  // the same bytes; "i" is about direction
  if (encoding == "x-mac-cyrillic") return "MAC-CYRILLIC";
  if (encoding == "shift_jis") return "CP932";
  if (encoding == "euc-kr") return "CP949";
  if (encoding == "big5") return "BIG5-HKSCS";
  return std::string(encoding);
}

}  // namespace

// x-user-defined: ASCII as itself, byte 0x80 + n as U+F780 + n (the standard's private-use block).
std::string_view Utf8Converter::user_defined_to_utf8(std::string_view page) {
  out_.clear();
  for (const char c : page) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out_ += c;
      continue;
    }
    const unsigned cp = 0xF700u + b;
    out_ += static_cast<char>(0xE0 | (cp >> 12));
    out_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out_ += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out_;
}

Utf8Converter::~Utf8Converter() {
  for (auto& [name, cd] : open_) {
    if (cd != kNoConverter) iconv_close(cd);
  }
}

iconv_t Utf8Converter::descriptor(std::string_view encoding) {
  auto it = open_.find(encoding);
  if (it == open_.end()) {
    // A failed open is remembered too, so a missing converter costs one lookup per page.
    iconv_t cd = iconv_open("UTF-8", iconv_name(encoding).c_str());
    it = open_.emplace(std::string(encoding), cd).first;
  }
  return it->second;
}

std::string_view Utf8Converter::to_utf8(std::string_view page, std::string_view charset) {
  const SniffedEncoding sniffed = sniff_encoding(page, charset);
  page.remove_prefix(sniffed.bom_bytes);  // a byte-order mark is not part of the text
  if (sniffed.encoding == "utf-8" || page.empty()) return page;
  // The standard decodes these two itself; glibc knows neither.
  if (sniffed.encoding == "replacement") return kReplacement;
  if (sniffed.encoding == "x-user-defined") return user_defined_to_utf8(page);
  iconv_t cd = descriptor(sniffed.encoding);
  if (cd == kNoConverter) return page;  // not in this glibc: gumbo replaces what is not UTF-8
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
