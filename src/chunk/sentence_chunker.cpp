// The sentence chunker: dom blocks, each split with ICU's sentence BreakIterator over UTF-8.
#include "sentence_chunker.hpp"

#include <unicode/brkiter.h>
#include <unicode/utext.h>

#include "crd/base/error.hpp"

namespace crd::chunk::detail {

namespace {

// U+FFFD in UTF-8: what gumbo and the charset converter put where bytes could not be decoded.
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

struct UTextCloser {
  void operator()(UText* t) const noexcept { utext_close(t); }
};

}  // namespace

SentenceChunker::SentenceChunker(const ChunkerOptions& options) : dom_(options) {
  UErrorCode status = U_ZERO_ERROR;
  breaker_.reset(icu::BreakIterator::createSentenceInstance(icu::Locale::createFromName(kSentenceLocale), status));
  if (U_FAILURE(status) || !breaker_)
    throw FatalError(std::string("ICU cannot make a sentence break iterator: ") + u_errorName(status));
}

SentenceChunker::~SentenceChunker() = default;

std::string_view SentenceChunker::chunk(std::string_view page, std::string_view charset,
                                        const std::function<void(std::string_view)>& emit) {
  // The whole page's text is gathered first: a page that is skipped must emit nothing.
  blocks_.clear();
  block_ends_.clear();
  invalid_sentences_ = 0;
  const std::string_view dom_skip = dom_.chunk(page, charset, [&](std::string_view block) {
    blocks_ += block;
    block_ends_.push_back(blocks_.size());
  });
  if (!dom_skip.empty()) return dom_skip;

  std::size_t emitted = 0;
  std::size_t begin = 0;
  for (const std::size_t end : block_ends_) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<UText, UTextCloser> text(
        utext_openUTF8(nullptr, blocks_.data() + begin, static_cast<std::int64_t>(end - begin), &status));
    if (U_FAILURE(status)) throw FatalError(std::string("ICU cannot open text: ") + u_errorName(status));
    breaker_->setText(text.get(), status);
    if (U_FAILURE(status)) throw FatalError(std::string("ICU cannot break text: ") + u_errorName(status));
    // Over a UTF-8 UText the break positions are byte offsets into the block.
    std::int32_t from = breaker_->first();
    for (std::int32_t to = breaker_->next(); to != icu::BreakIterator::DONE; from = to, to = breaker_->next()) {
      normalize_whitespace(std::string_view(blocks_).substr(begin + static_cast<std::size_t>(from),
                                                             static_cast<std::size_t>(to - from)),
                           normalized_);
      if (normalized_.empty()) continue;
      // Undecodable bytes would make a sentence that exists in no real text (and differs by
      // decoder): that sentence goes, its neighbours stay. U+FFFD does not break a sentence
      // (UAX #29 class Other), so the damage stays inside the sentence that holds it.
      if (normalized_.find(kReplacement) != std::string::npos) {
        ++invalid_sentences_;
        continue;
      }
      emit(normalized_);
      ++emitted;
    }
    begin = end;
  }
  return emitted == 0 ? "sentence.none" : std::string_view{};
}

Chunker::DroppedParts SentenceChunker::dropped_parts() const { return {"sentence.invalid_utf8", invalid_sentences_}; }

}  // namespace crd::chunk::detail
