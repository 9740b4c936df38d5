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
  terms_.clear();
  term_ends_.clear();
  tokens_.clear();
  // No page host: an <img> term is its file name when relative, its whole URL when absolute.
  text::for_each_term(page, "", [&](std::string_view term) {
    terms_ += term;
    term_ends_.push_back(terms_.size());
    tokens_.push_back(text::term_token(term));
  });
  if (tokens_.size() < gram_words_) return "winnow.few_words";
  const std::vector<std::uint64_t> grams = text::shingles(tokens_, gram_words_);
  for (const std::size_t first : winnow(grams, window_)) {
    gram_.clear();
    for (std::size_t t = first; t < first + gram_words_; ++t) {
      const std::size_t begin = t == 0 ? 0 : term_ends_[t - 1];
      if (!gram_.empty()) gram_ += ' ';
      gram_.append(terms_, begin, term_ends_[t] - begin);
    }
    emit(gram_);
  }
  return {};
}

}  // namespace crd::chunk::detail
