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

inline neardup::SketchedPage sketched_page(const std::string& key, const std::string& text,
                                           const neardup::SketchParams& params = {}) {
  const auto tokens = tokens_of(text);
  const Digest id =
      sha1(std::string_view(reinterpret_cast<const char*>(tokens.data()), tokens.size() * sizeof(std::uint64_t)));
  return {id, {key}, neardup::sketch(tokens, params), {}};
}

}  // namespace crd::testing
