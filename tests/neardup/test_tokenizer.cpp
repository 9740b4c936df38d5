// The seed 002 §2 tokenizer: markup, formatting tags, URLs in text, the <img src> rule.
#include <gtest/gtest.h>

#include "crd/neardup/fingerprint.hpp"
#include "crd/neardup/tokenizer.hpp"

namespace crd::neardup {
namespace {

using Terms = std::vector<std::string>;

TEST(Tokenizer, MarkupIsWhitespaceAndTermsAreAlphanumericRuns) {
  EXPECT_EQ(terms("<p>Hello, world!</p><div>x-ray 42</div>", "h.org"), (Terms{"Hello", "world", "x", "ray", "42"}));
  EXPECT_EQ(terms("one<br>two<p>three", "h.org"), (Terms{"one", "two", "three"}));
}

TEST(Tokenizer, FormattingTagsAreIgnoredNotSpaces) {
  EXPECT_EQ(terms("wo<b>rd</b>s and <a href=\"x\">li</a>nk", "h.org"), (Terms{"words", "and", "link"}));
}

TEST(Tokenizer, CommentsScriptsStylesAndReferencesAreMarkup) {
  EXPECT_EQ(terms("a<!-- hidden words -->b<script>var x = 1;</script>c<style>p{}</style>d&amp;e&#160;f", "h.org"),
            (Terms{"a", "b", "c", "d", "e", "f"}));
  EXPECT_EQ(terms("AT&T <3 x < y", "h.org"), (Terms{"AT", "T", "3", "x", "y"}));  // not references, not tags
}

TEST(Tokenizer, UrlsInTextAreSplitAtSlashesAndDotsOnly) {
  EXPECT_EQ(terms("see http://www.Example.org/my-page/index.html?id=3, then", "h.org"),
            (Terms{"see", "http", "www", "Example", "org", "my-page", "index", "html?id=3", "then"}));
  EXPECT_EQ(terms("at www.a-b.com/x_y.", "h.org"), (Terms{"at", "www", "a-b", "com", "x_y"}));
  EXPECT_EQ(terms("https://x.org", "h.org"), (Terms{"https", "x", "org"}));
  EXPECT_EQ(terms("nothttp://x", "h.org"), (Terms{"nothttp", "x"}));  // not at a word start
}

TEST(Tokenizer, ImageOnAnotherHostIsItsWholeUrl) {
  EXPECT_EQ(terms("a<img alt=\"pic\" src=\"http://cdn.net/img/logo.png?v=2\">b", "h.org"),
            (Terms{"a", "http://cdn.net/img/logo.png?v=2", "b"}));
  EXPECT_EQ(terms("<IMG SRC='//cdn.net/x.gif'>", "h.org"), (Terms{"//cdn.net/x.gif"}));
}

TEST(Tokenizer, ImageOnThePagesOwnHostIsItsFileName) {
  EXPECT_EQ(terms("<img src=\"/images/logo.png\">", "h.org"), (Terms{"logo.png"}));
  EXPECT_EQ(terms("<img src=pics/a.jpg#x>", "h.org"), (Terms{"a.jpg"}));
  EXPECT_EQ(terms("<img src=\"HTTP://H.ORG/i/b.gif\">", "h.org"), (Terms{"b.gif"}));
  EXPECT_EQ(terms("<img src=\"https://h.org:443/c.gif\">", "h.org"), (Terms{"c.gif"}));
  // A mirror on another host gives the same tokens for its own images.
  EXPECT_EQ(tokenize("x<img src=\"http://a.org/p/i.png\">", "a.org"),
            tokenize("x<img src=\"http://mirror.net/p/i.png\">", "mirror.net"));
}

TEST(Tokenizer, ImageWithoutSourceGivesNoTerm) {
  EXPECT_EQ(terms("a<img alt=x>b<img src=\"\">c", "h.org"), (Terms{"a", "b", "c"}));
}

TEST(Tokenizer, TokensAreTheDocumentedTermHash) {
  const auto tokens = tokenize("web", "h.org");
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0], 0xce4d33d634845dafull);  // tests/neardup/reference_sketch.py
  EXPECT_EQ(mix64(0), 0xe220a8397b1dcdafull);   // SplitMix64's first output for seed 0
}

TEST(Tokenizer, UnterminatedMarkupEndsCleanly) {
  EXPECT_EQ(terms("a <p class=\"x", "h.org"), (Terms{"a"}));
  EXPECT_EQ(terms("a <!-- b", "h.org"), (Terms{"a"}));
  EXPECT_EQ(terms("a <script> b", "h.org"), (Terms{"a"}));
  EXPECT_EQ(terms("a &amp", "h.org"), (Terms{"a", "amp"}));
}

}  // namespace
}  // namespace crd::neardup
