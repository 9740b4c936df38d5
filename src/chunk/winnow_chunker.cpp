// The winnow chunker: the text layer's terms → K-word gram hashes → winnowed positions → gram texts.
#include "winnow_chunker.hpp"

#include "crd/base/error.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/shingles.hpp"
#include "crd/text/tokenizer.hpp"
#include "winnow.hpp"

namespace crd::chunk::detail {

WinnowChunker::WinnowChunker(const ChunkerOptions& options) : gram_words_(options.gram_words), window_(options.window) {
  if (gram_words_ < 1 || gram_words_ > kMaxGramWords)
    throw UsageError("option --gram-words: must be 1.." + std::to_string(kMaxGramWords));
  if (window_ < 1 || window_ > kMaxWindow)
    throw UsageError("option --window: must be 1.." + std::to_string(kMaxWindow));
}

std::string_view WinnowChunker::chunk(std::string_view page, std::string_view charset,
                                      const std::function<void(std::string_view)>& emit) {
  page = converter_.to_utf8(page, charset);  // the sniffed encoding: BOM, HTTP label, <meta>
  // No page host: an <img> term is its file name when relative, its whole URL when absolute.
  text::terms_and_tokens(page, "", terms_);
  if (terms_.tokens.size() < gram_words_) return "winnow.few_words";
  text::shingles(terms_.tokens, gram_words_, grams_);
  winnow(grams_, window_, selected_);
  for (const std::size_t first : selected_) {
    // The gram's text: its terms joined by single spaces.
    gram_.clear();
    for (std::size_t t = first; t < first + gram_words_; ++t) {
      if (!gram_.empty()) gram_ += ' ';
      gram_ += terms_.term(t);
    }
    emit(gram_);
  }
  return {};
}

}  // namespace crd::chunk::detail
