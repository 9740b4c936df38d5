// The dom chunker (internal): visible text of a gumbo HTML5 tree, split at boundary elements.
#pragma once

#include <gumbo.h>

#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "utf8_converter.hpp"

namespace crd::chunk::detail {

class DomChunker final : public Chunker {
 public:
  explicit DomChunker(const ChunkerOptions& options);
  std::string_view chunk(std::string_view page, std::string_view charset,
                         const std::function<void(std::string_view normalized)>& emit) override;

 private:
  bool is_boundary(const GumboNode& node) const;
  void flush(const std::function<void(std::string_view)>& emit);

  std::vector<GumboTag> known_;      // boundary tags gumbo knows by enum
  std::vector<std::string> custom_;  // boundary tags gumbo calls GUMBO_TAG_UNKNOWN
  Utf8Converter converter_;
  std::string text_;        // visible text of the current chunk, not yet normalized
  std::string normalized_;  // scratch for normalize_whitespace
  std::vector<const GumboNode*> stack_;
};

}  // namespace crd::chunk::detail
