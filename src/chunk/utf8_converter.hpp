// UTF-8 conversion of pages with a declared charset (internal), through glibc iconv.
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

  // The page as UTF-8. A byte-order mark (UTF-8, UTF-16LE, UTF-16BE) overrides `charset` and is
  // dropped. The page itself when the charset is UTF-8, ASCII-compatible-unknown or unsupported
  // by iconv; otherwise the converted bytes (in an internal buffer valid until the
  // next call). Bytes iconv cannot decode become U+FFFD, one per byte; never fails.
  std::string_view to_utf8(std::string_view page, std::string_view charset);

 private:
  iconv_t descriptor(std::string_view charset);

  std::map<std::string, iconv_t, std::less<>> open_;
  std::string out_;
};

}  // namespace crd::chunk::detail
