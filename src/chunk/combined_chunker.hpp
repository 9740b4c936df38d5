// The combined chunker (internal, --chunker winnow+scan): a page's exact scan chunks, then its
// winnowed grams marked with kGramMark, so that detection can weigh both kinds of evidence on the
// same page (docs/winnow.md, "Deletions: the combined mode").
#pragma once

#include <string>

#include "crd/chunk/chunker.hpp"
#include "scan_chunker.hpp"
#include "winnow_chunker.hpp"

namespace crd::chunk::detail {

class CombinedChunker final : public Chunker {
 public:
  explicit CombinedChunker(const ChunkerOptions& options) : scan_(options), winnow_(options) {}
  // Skipped ("winnow.few_words") only when neither part emits a chunk.
  std::string_view chunk(std::string_view page, std::string_view charset,
                         const std::function<void(std::string_view normalized)>& emit) override;

 private:
  ScanChunker scan_;
  WinnowChunker winnow_;
  std::string marked_;  // kGramMark and the current gram's text
};

}  // namespace crd::chunk::detail
