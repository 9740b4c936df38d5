// The scan chunker (internal): chunks raw markup at boundary tags, see docs/chunking.md.
#pragma once

#include <memory>

#include "boundary_finder.hpp"
#include "crd/chunk/chunker.hpp"

namespace crd::chunk::detail {

class ScanChunker final : public Chunker {
 public:
  explicit ScanChunker(const ChunkerOptions& options) : finder_(options.tags, options.boundary_match == BoundaryMatch::Prefix) {}
  // charset is ignored: the scan works on bytes and every boundary is ASCII.
  std::string_view chunk(std::string_view page, std::string_view charset,
                         const std::function<void(std::string_view normalized)>& emit) override;

 private:
  void emit_span(const char* begin, std::size_t size,
                 const std::function<void(std::string_view)>& emit);

  BoundaryFinder finder_;
  std::unique_ptr<char[]> buffer_;  // normalized bytes of the current chunk; grows, never shrinks
  std::size_t capacity_ = 0;
};

}  // namespace crd::chunk::detail
