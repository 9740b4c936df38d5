// valid_utf8, html_escape and append_json_string against hostile strings and invalid UTF-8.
#include <gtest/gtest.h>

#include "text_escape.hpp"

namespace crd::report {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

std::string json(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

TEST(ValidUtf8, KeepsValidText) {
  const std::string text = "plain ascii, café, 日本語, emoji \xF0\x9F\x98\x80, U+10FFFF \xF4\x8F\xBF\xBF";
  EXPECT_EQ(valid_utf8(text), text);
}

TEST(ValidUtf8, ReplacesEachMaximalInvalidSubpart) {
  EXPECT_EQ(valid_utf8("a\x80z"), "a" + kFffd + "z");                    // stray continuation
  EXPECT_EQ(valid_utf8("a\xC3"), "a" + kFffd);                           // truncated at the end
  EXPECT_EQ(valid_utf8("\xE2\x82z"), kFffd + "z");                       // truncated 3-byte: one U+FFFD
  EXPECT_EQ(valid_utf8("\xC0\xAF"), kFffd + kFffd);                      // overlong '/'
  EXPECT_EQ(valid_utf8("\xE0\x80\xAF"), kFffd + kFffd + kFffd);          // overlong 3-byte
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), kFffd + kFffd + kFffd);          // surrogate U+D800
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // above U+10FFFF
  EXPECT_EQ(valid_utf8("\xFF\xFE"), kFffd + kFffd);
  EXPECT_EQ(valid_utf8(std::string("a\0b", 3)), std::string("a\0b", 3));  // NUL is valid UTF-8
}

TEST(HtmlEscape, EscapesMarkupAndQuotes) {
  EXPECT_EQ(html_escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(html_escape("<img src=x onerror=\"alert('x')\">"),
            "&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;");
  EXPECT_EQ(html_escape("a & b &amp;"), "a &amp; b &amp;amp;");
  EXPECT_EQ(html_escape("</textarea><!--"), "&lt;/textarea&gt;&lt;!--");
}

TEST(HtmlEscape, ControlsAndInvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(html_escape(std::string("a\0b\x01\x7f\tc\nd", 9)), "a" + kFffd + "b" + kFffd + kFffd + "\tc\nd");
  EXPECT_EQ(html_escape("\xFF<"), kFffd + "&lt;");
}

TEST(JsonString, EscapesWhatCouldCloseTheScriptElement) {
  EXPECT_EQ(json("</script><script>alert(1)</script>"),
            "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\"");
  EXPECT_EQ(json("<!-- a && b -->"), "\"\\u003c!-- a \\u0026\\u0026 b --\\u003e\"");
  EXPECT_EQ(json("javascript:alert(\"x\")"), "\"javascript:alert(\\\"x\\\")\"");
}

TEST(JsonString, EscapesControlsBackslashAndLineSeparators) {
  EXPECT_EQ(json(std::string("\\ \n\t\r\0\x1f\x7f", 8)), "\"\\\\ \\n\\t\\u000d\\u0000\\u001f\\u007f\"");
  EXPECT_EQ(json("a\xE2\x80\xA8" "b\xE2\x80\xA9" "c"), "\"a\\u2028b\\u2029c\"");
  EXPECT_EQ(json("\xE2\x80\xA7"), "\"\xE2\x80\xA7\"");  // U+2027 is an ordinary character
}

TEST(JsonString, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(json("\xC3<"), "\"" + kFffd + "\\u003c\"");
  EXPECT_EQ(json("\xE2\x80"), "\"" + kFffd + "\"");  // a truncated U+2028 is not escaped as one
}

TEST(JsonString, OutputNeverHoldsAngleBracketsAmpersandOrRawControls) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string out = json(all + "</script>" + all);
  for (char c : out) {
    EXPECT_NE(c, '<');
    EXPECT_NE(c, '>');
    EXPECT_NE(c, '&');
    EXPECT_GE(static_cast<unsigned char>(c), 0x20);
  }
}

}  // namespace
}  // namespace crd::report
