// Plain words as a token sequence, for tests that build pages from words: each whitespace-separated
// word's text::term_token, as the tokenizer gives them for text without markup.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "crd/text/fingerprint.hpp"

namespace crd::testing {

inline std::vector<std::uint64_t> tokens_of(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(text::term_token(w));
  return out;
}

}  // namespace crd::testing
