// A page's k-word grams (Najork 2012, §2): the visible-text terms of the text layer's tokenizer, each
// window of k consecutive terms hashed to 64 bits by text::shingles, as a set.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "crd/quilts/params.hpp"

namespace crd::quilts {

// Why a page yields no grams; counted as quilts.pages.<name>.
enum class GramSkip { None, NoWords, FewerThanKWords, TooManyGrams };
std::string_view counter_name(GramSkip why);

struct PageGrams {
  std::vector<std::uint64_t> grams;  // distinct, ascending
  GramSkip skipped = GramSkip::None;
};

// page_host: the key's host (as text::tokenize takes it). A page of n ≥ k words has the
// distinct ones of its n − k + 1 grams; shorter pages and pages with more than max_page_grams
// distinct grams have none.
PageGrams page_grams(std::string_view html, std::string_view page_host, const QuiltParams& params);

// Buffers page_grams reuses from page to page, so that a scan's only lasting allocations are the
// gram sets, each exactly its size: fresh vectors per page and the slack of their capacity would
// add a large fraction of the gram sets' own size (free chunks between the sets, and capacity
// left by the duplicate grams of a page).
struct GramScratch {
  std::vector<std::uint64_t> tokens, grams, sorted;
};
PageGrams page_grams(std::string_view html, std::string_view page_host, const QuiltParams& params,
                     GramScratch& scratch);

}  // namespace crd::quilts
