// The sentence chunker: dom blocks, each split with ICU's sentence BreakIterator over UTF-8.
#include "sentence_chunker.hpp"

#include <unicode/brkiter.h>
#include <unicode/utext.h>

#include "crd/base/error.hpp"

namespace crd::chunk::detail {

namespace {

// U+FFFD in UTF-8: what gumbo and the charset converter put where bytes could not be decoded.
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Gumbo turns control characters (ESC, BEL, the other C0 controls but whitespace and NUL, DEL and
// the C1 controls) into U+FFFD too, so a sentence holding one was counted as invalid UTF-8. They
// are marked first with U+10FFFD (private use, which gumbo keeps and no page is expected to use):
// the sentence still goes, counted for what it holds. Both break no sentence (UAX #29 Other).
constexpr std::string_view kControlMark = "\xF4\x8F\xBF\xBD";

// Length of the control character at text[i] (1, or 2 for a C1 control in UTF-8), else 0.
std::size_t control_at(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  if ((c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F) return 1;
  if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
      static_cast<unsigned char>(text[i + 1]) <= 0x9F)
    return 2;
  return 0;
}

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
  control_sentences_ = 0;
  // Decoded here (the dom chunker then reads UTF-8 as it is), so control characters can be marked.
  std::string_view utf8 = converter_.to_utf8(page, charset);
  std::size_t first = 0;
  while (first < utf8.size() && control_at(utf8, first) == 0) ++first;
  if (first < utf8.size()) {
    marked_.assign(utf8.substr(0, first));
    for (std::size_t i = first; i < utf8.size();) {
      if (const std::size_t n = control_at(utf8, i); n != 0) {
        marked_ += kControlMark;
        i += n;
      } else {
        marked_ += utf8[i++];
      }
    }
    utf8 = marked_;
  }
  const std::string_view dom_skip = dom_.chunk(utf8, "utf-8", [&](std::string_view block) {
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
      if (normalized_.find(kControlMark) != std::string::npos) {
        ++control_sentences_;
        continue;
      }
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

Chunker::Dropped SentenceChunker::dropped_parts() const {
  return {DroppedParts{"sentence.invalid_utf8", invalid_sentences_},
          DroppedParts{"sentence.control_characters", control_sentences_}};
}

}  // namespace crd::chunk::detail
