// Page → token sequence, as Henzinger 2006, §2 prescribes for both algorithms:
//   - markup becomes whitespace, except formatting tags (b, i, em, span, font, a, …), which are
//     ignored, so "wo<b>rd</b>" is the term "word"; comments, <script> and <style> bodies and
//     character references (&amp; &#160;) are markup too;
//   - every maximal alphanumeric run is a term (ASCII letters and digits; bytes ≥ 0x80 count as
//     letters, so UTF-8 words stay whole); case is kept;
//   - a URL in the text (starting http://, https:// or www.) is split at '/' and '.' only, so
//     "http://a.org/my-page.html" gives http, a, org, my-page, html (its scheme's "://" and
//     trailing punctuation are dropped);
//   - an <img src=URL> is one term: the whole URL as written when it points to another host, only
//     its file name (last path component, no query or fragment) when it is relative or on the
//     page's own host; so a site mirrored under another host keeps its image tokens.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace crd::text {

// Calls on_term for each term in page order. page_host: the page's host as url::url_key spells it
// (lowercase, port kept), i.e. the key's first component.
void for_each_term(std::string_view html, std::string_view page_host,
                   const std::function<void(std::string_view term)>& on_term);

// The page's terms with their tokens, for a caller that needs both (the winnow chunker): `text`
// holds the terms back to back, ends[i] is where term i ends in it, tokens[i] its term_token.
// Refilled by terms_and_tokens, which keeps the capacities from page to page.
struct TermList {
  std::string text;
  std::vector<std::size_t> ends;
  std::vector<std::uint64_t> tokens;
  std::string_view term(std::size_t i) const {
    const std::size_t begin = i == 0 ? 0 : ends[i - 1];
    return std::string_view(text).substr(begin, ends[i] - begin);
  }
};
// One pass, no call per term: a word's token is the hash taken as its bytes are scanned.
void terms_and_tokens(std::string_view html, std::string_view page_host, TermList& out);

// The terms as strings (tests, diagnostics).
std::vector<std::string> terms(std::string_view html, std::string_view page_host);

// The token sequence: term_token (fingerprint.hpp) of each term.
std::vector<std::uint64_t> tokenize(std::string_view html, std::string_view page_host);
// The same into `out` (replaced), whose capacity a caller can reuse from page to page.
void tokenize(std::string_view html, std::string_view page_host, std::vector<std::uint64_t>& out);

}  // namespace crd::text
