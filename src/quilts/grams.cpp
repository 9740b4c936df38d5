// Pages → sets of 64-bit k-word grams, with the text layer's tokenizer and shingles (text/).
#include "crd/quilts/grams.hpp"

#include <algorithm>

#include "crd/text/shingles.hpp"
#include "crd/text/sort_hashes.hpp"
#include "crd/text/tokenizer.hpp"

namespace crd::quilts {

std::string_view counter_name(GramSkip why) {
  switch (why) {
    case GramSkip::None: return "quilts.pages.grammed";
    case GramSkip::NoWords: return "quilts.pages.no_words";
    case GramSkip::FewerThanKWords: return "quilts.pages.fewer_than_k_words";
    case GramSkip::TooManyGrams: return "quilts.pages.too_many_grams";
  }
  return "quilts.pages.unknown";
}

PageGrams page_grams(std::string_view html, std::string_view page_host, const QuiltParams& params) {
  GramScratch scratch;
  return page_grams(html, page_host, params, scratch);
}

PageGrams page_grams(std::string_view html, std::string_view page_host, const QuiltParams& params,
                     GramScratch& scratch) {
  PageGrams out;
  text::tokenize(html, page_host, scratch.tokens);
  if (scratch.tokens.empty()) {
    out.skipped = GramSkip::NoWords;
    return out;
  }
  if (scratch.tokens.size() < params.k) {  // text::shingles() would give one short gram; the paper none
    out.skipped = GramSkip::FewerThanKWords;
    return out;
  }
  auto& grams = scratch.grams;
  text::shingles(scratch.tokens, params.k, grams);
  text::sort_hashes(grams, scratch.sorted);
  grams.erase(std::unique(grams.begin(), grams.end()), grams.end());
  if (grams.size() > params.max_page_grams) {
    out.skipped = GramSkip::TooManyGrams;
    return out;
  }
  out.grams.assign(grams.begin(), grams.end());
  return out;
}

}  // namespace crd::quilts
