// UTF-8 conversion of pages in the encoding HTML5 sniffing finds (internal), through glibc iconv.
#pragma once

#include <iconv.h>

#include <map>
#include <string>
#include <string_view>

namespace crd::chunk::detail {

// Keeps one iconv descriptor per charset seen, so a crawl of mostly-one-charset pages opens
// each converter once. Not thread-safe: one per chunker.
class Utf8Converter {
 public:
  Utf8Converter() = default;
  ~Utf8Converter();
  Utf8Converter(const Utf8Converter&) = delete;
  Utf8Converter& operator=(const Utf8Converter&) = delete;

  // The page as UTF-8, in the encoding sniff_encoding finds from the page and `charset` (the
  // HTTP header's label, "" if none); a byte-order mark is dropped. The page itself when that
  // is UTF-8 (the default) or glibc lacks the converter; otherwise the converted bytes (in an
  // internal buffer valid until the next call). Bytes iconv cannot decode become U+FFFD, one
  // per byte; never fails.
  std::string_view to_utf8(std::string_view page, std::string_view charset);

 private:
  iconv_t descriptor(std::string_view encoding);
  std::string_view user_defined_to_utf8(std::string_view page);

  std::map<std::string, iconv_t, std::less<>> open_;
  std::string out_;
};

}  // namespace crd::chunk::detail
