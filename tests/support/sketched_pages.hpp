// A page for the neardup tests, built from plain words: its identity (the SHA-1 of its token
// sequence, as the neardup scan computes it, so exact copies share it) and its sketch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "crd/hash/sha1.hpp"
#include "crd/neardup/candidates.hpp"
#include "support/word_tokens.hpp"

namespace crd::testing {

// with_sample: also its Jaccard sample (params.jaccard_sample hashes), as --min-jaccard keeps it.
inline neardup::SketchedPage sketched_page(const std::string& key, const std::string& text,
                                           const neardup::SketchParams& params = {}, bool with_sample = false) {
  const auto tokens = tokens_of(text);
  neardup::SketchedPage page;
  page.identity =
      sha1(std::string_view(reinterpret_cast<const char*>(tokens.data()), tokens.size() * sizeof(std::uint64_t)));
  page.pages = {key};
  page.sketch = neardup::sketch(tokens, params, with_sample ? &page.sample : nullptr);
  return page;
}

}  // namespace crd::testing
