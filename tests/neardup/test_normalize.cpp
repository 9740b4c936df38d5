// --normalize-text: each term lower-cased, punctuation removed, every run of digits one '0' (as
// FineWeb's simplify_text), and the effect that is its point: pages that differ only in case,
// numbers or punctuation get the same tokens, so they are near-duplicates, and without it are not.
#include <gtest/gtest.h>

#include <string>

#include "crd/text/fingerprint.hpp"
#include "crd/neardup/normalize.hpp"
#include "crd/neardup/sketch.hpp"
#include "crd/text/tokenizer.hpp"

namespace crd::neardup {
namespace {

TEST(Normalize, LowerCasePunctuationOutDigitRunsAsZero) {
  EXPECT_EQ(normalize_term("Hello"), "hello");
  EXPECT_EQ(normalize_term("HTML5"), "html0");
  EXPECT_EQ(normalize_term("2024"), "0");
  EXPECT_EQ(normalize_term("v1x22y333"), "v0x0y0");
  EXPECT_EQ(normalize_term("my-page"), "mypage");  // a URL piece keeps '-' as a term
  EXPECT_EQ(normalize_term("html?id=3"), "htmlid0");
  EXPECT_EQ(normalize_term("cdn.net/img/Logo.PNG"), "cdnnetimglogopng");
  EXPECT_EQ(normalize_term("--"), "");  // nothing left: the term is dropped
  EXPECT_EQ(normalize_term("Ünïcode"),
            "\xc3\x9c"
            "n"
            "\xc3\xaf"
            "code");  // bytes >= 0x80 are kept
}

TEST(Normalize, TokensAreTheNormalizedTermsTokens) {
  const std::string html = "<p>Release 3.11, see http://Example.org/my-page NOW</p><img src=\"a/B-1.png\">";
  std::vector<std::uint64_t> want;
  for (const char* t : {"release", "0", "0", "see", "http", "example", "org", "mypage", "now", "b0png"})
    want.push_back(text::term_token(t));
  EXPECT_EQ(tokenize_normalized(html, "h.org"), want);
  // Off, the tokens are the terms as written (today's tokens).
  EXPECT_EQ(text::tokenize(html, "h.org").front(), text::term_token("Release"));
}

// A page of prose with numbers; its variant changes case, every number and some punctuation.
std::string page(bool variant) {
  std::string html = "<html><body>";
  for (int i = 0; i < 60; ++i) {
    const std::string n = std::to_string(variant ? 1000 + i * 7 : 10 + i);
    html += variant ? "<p>THE Report Number " + n + " lists item-" + n + " of section " + n + "; see it.</p>"
                    : "<p>the report number " + n + " lists item " + n + " of Section " + n + ", see it!</p>";
  }
  return html + "</body></html>";
}

TEST(Normalize, MakesCaseAndDigitVariantsNearDuplicates) {
  const SketchParams params;  // Henzinger 2006's: 8-token shingles, 6 supershingles of 14 min-values
  const auto plain_a = sketch(text::tokenize(page(false), "h.org"), params);
  const auto plain_b = sketch(text::tokenize(page(true), "h.org"), params);
  EXPECT_LT(b_similarity(plain_a, plain_b), 2u);  // not B-similar: every shingle differs
  const auto norm_a = sketch(tokenize_normalized(page(false), "h.org"), params);
  const auto norm_b = sketch(tokenize_normalized(page(true), "h.org"), params);
  EXPECT_EQ(tokenize_normalized(page(false), "h.org"), tokenize_normalized(page(true), "h.org"));
  EXPECT_EQ(b_similarity(norm_a, norm_b), params.m_prime);
  EXPECT_EQ(c_similarity(norm_a, norm_b), params.b);
}

}  // namespace
}  // namespace crd::neardup
