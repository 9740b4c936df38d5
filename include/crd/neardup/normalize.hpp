// Text normalization of the tokenizer's terms (crd neardup --normalize-text), as FineWeb's
// deduplication normalizes text before shingling (Penedo et al. 2024, datatrove's simplify_text):
// lower case, punctuation removed, every run of digits one '0'. Applied to each term the tokenizer
// finds (tokenizer.hpp), so "Page-2024" and "page-1999" become the same token; a term left empty
// (punctuation only) is dropped. Bytes ≥ 0x80 (UTF-8) are kept as they are.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crd::neardup {

// The normalized form of one term into `out` (replaced); empty when nothing is left.
void normalize_term(std::string_view term, std::string& out);
std::string normalize_term(std::string_view term);

// The token sequence of the normalized terms (term_token of each non-empty normalized term).
void tokenize_normalized(std::string_view html, std::string_view page_host, std::vector<std::uint64_t>& out);
std::vector<std::uint64_t> tokenize_normalized(std::string_view html, std::string_view page_host);

}  // namespace crd::neardup
