// The winnow chunker (internal): a page's K-word grams of visible text, winnowed (docs/winnow.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "crd/text/tokenizer.hpp"
#include "utf8_converter.hpp"

namespace crd::chunk::detail {

// Each fingerprint is emitted as its gram's text, the K terms joined by single spaces, so the
// caller's SHA-1 of it identifies the gram exactly; the 64-bit gram hash only chooses which
// grams are kept. The tags are not used: the terms are the text layer's tokens (text/tokenizer.hpp,
// as crd neardup and quilts use), of the page decoded to UTF-8 first, as dom and sentence decode it
// (a UTF-16 page read as bytes makes every letter a term of its own, and shares nothing with the
// same text in UTF-8).
class WinnowChunker final : public Chunker {
 public:
  explicit WinnowChunker(const ChunkerOptions& options);
  std::string_view chunk(std::string_view page, std::string_view charset,
                         const std::function<void(std::string_view normalized)>& emit) override;

 private:
  std::uint32_t gram_words_;
  std::uint32_t window_;
  text::TermList terms_;               // this page's terms and their tokens
  std::vector<std::uint64_t> grams_;   // the hash of each K-word gram
  std::vector<std::size_t> selected_;  // the first term of each gram kept
  std::string gram_;
  Utf8Converter converter_;
};

}  // namespace crd::chunk::detail
