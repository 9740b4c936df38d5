// A cheap upper estimate of a page's element nesting depth, scanned from the raw markup.
//
// gumbo (0.10) walks its stack of open elements at every start tag, so parsing costs time
// quadratic in nesting depth: 120,000 nested <div> (a 1.3 MB page) take 43 s. Browsers bound the
// depth too (Blink's parser stops nesting at 512 levels); the dom chunker skips pages deeper than
// kMaxDomNesting rather than let one hostile page stall a rank.
#pragma once

#include <cstddef>
#include <string_view>

namespace crd::chunk::detail {

inline constexpr std::size_t kMaxDomNesting = 4096;

// True if the depth of open elements exceeds `limit` somewhere in the page. Start tags raise the
// depth and end tags lower it; void elements, self-closing tags and elements whose end tag HTML
// lets authors omit (p, li, td, …: closed implicitly, so they do not nest) are not counted.
bool nesting_exceeds(std::string_view page, std::size_t limit);

}  // namespace crd::chunk::detail
