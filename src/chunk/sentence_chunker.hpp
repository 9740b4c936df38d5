// The sentence chunker (internal): the dom chunker's visible text, split into sentences by ICU.
#pragma once

#include <unicode/brkiter.h>

#include <memory>
#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "dom_chunker.hpp"
#include "utf8_converter.hpp"

namespace crd::chunk::detail {

// The locale whose sentence rules split text: Unicode's rules (UAX #29, any script) plus ICU's
// English abbreviation suppressions ("Mr. Smith" is one sentence). Part of a sentence's identity.
inline constexpr const char* kSentenceLocale = "en@ss=standard";

class SentenceChunker final : public Chunker {
 public:
  explicit SentenceChunker(const ChunkerOptions& options);
  ~SentenceChunker() override;
  std::string_view chunk(std::string_view page, std::string_view charset,
                         const std::function<void(std::string_view normalized)>& emit) override;
  // Sentences of the last page left out of it: those holding U+FFFD (undecodable bytes,
  // "sentence.invalid_utf8") and those holding ESC, BEL or another control character
  // ("sentence.control_characters").
  Dropped dropped_parts() const override;

 private:
  DomChunker dom_;  // the visible text, one block per boundary element (sentences never cross one)
  std::unique_ptr<icu::BreakIterator> breaker_;
  std::string blocks_;                   // this page's normalized blocks, back to back
  std::vector<std::size_t> block_ends_;  // end offset of each block in blocks_
  std::string normalized_;
  std::uint64_t invalid_sentences_ = 0;
  std::uint64_t control_sentences_ = 0;
  Utf8Converter converter_;
  std::string marked_;  // the page in UTF-8 with its control characters marked (when it has any)
};

}  // namespace crd::chunk::detail
