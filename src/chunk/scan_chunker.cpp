// The scan chunker: boundaries from BoundaryFinder, each span normalized by the fastest kernel.
#include "scan_chunker.hpp"

#include "whitespace.hpp"

namespace crd::chunk::detail {

void ScanChunker::emit_span(const char* begin, std::size_t size,
                            const std::function<void(std::string_view)>& emit) {
  if (size + kNormalizeSlack > capacity_) {
    // Not std::string: resizing one zero-fills, which would cost as much as the normalization.
    capacity_ = std::max<std::size_t>(2 * capacity_, size + kNormalizeSlack);
    buffer_ = std::make_unique_for_overwrite<char[]>(capacity_);
  }
  std::size_t len = normalize_run(begin, size, buffer_.get());
  if (len > 0 && buffer_[len - 1] == ' ') --len;
  if (len > 0) emit(std::string_view(buffer_.get(), len));
}

std::string_view ScanChunker::chunk(std::string_view page, std::string_view /*charset*/,
                                    const std::function<void(std::string_view)>& emit) {
  std::size_t pos = 0;
  std::size_t start = 0;  // the first chunk runs from byte 0 whether or not a tag is there
  while (start < page.size()) {
    const std::size_t boundary = finder_.next(page, pos);
    emit_span(page.data() + start, boundary - start, emit);
    start = boundary;
  }
  return {};  // any bytes can be scanned
}

}  // namespace crd::chunk::detail
