// Pages → sets of 64-bit k-word grams, reusing crd neardup's tokenizer and shingle hash.
#include "crd/quilts/grams.hpp"

#include <algorithm>

#include "crd/neardup/sketch.hpp"
#include "crd/neardup/sort_hashes.hpp"
#include "crd/neardup/tokenizer.hpp"

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
  PageGrams out;
  const auto tokens = neardup::tokenize(html, page_host);
  if (tokens.empty()) {
    out.skipped = GramSkip::NoWords;
    return out;
  }
  if (tokens.size() < params.k) {  // neardup's shingles() would give one short gram; the paper none
    out.skipped = GramSkip::FewerThanKWords;
    return out;
  }
  out.grams = neardup::shingles(tokens, params.k);
  neardup::sort_hashes(out.grams);
  out.grams.erase(std::unique(out.grams.begin(), out.grams.end()), out.grams.end());
  if (out.grams.size() > params.max_page_grams) {
    out.grams = {};
    out.skipped = GramSkip::TooManyGrams;
  }
  return out;
}

}  // namespace crd::quilts
