// Terminal-safe text: crawled URLs and samples reach the terminal through printable() and
// one_line(); nothing in them may start a terminal escape sequence.
#include "crd/base/printable.hpp"

#include <gtest/gtest.h>

#include "text_format.hpp"

namespace crd {
namespace {

TEST(Printable, PlainTextAndValidUtf8PassUnchanged) {
  EXPECT_EQ(printable("http://example.com/a b?c=d"), "http://example.com/a b?c=d");
  EXPECT_EQ(printable("straße 日本語 😀"), "straße 日本語 😀");
  EXPECT_EQ(printable("\xc2\xa0nbsp"), "\xc2\xa0nbsp");  // U+00A0 is printable
}

TEST(Printable, ControlCharactersBecomeVisibleEscapes) {
  EXPECT_EQ(printable("a\x1b[2Jb"), "a\\x1b[2Jb");          // ESC (clear screen)
  EXPECT_EQ(printable("\x1b]0;title\x07"), "\\x1b]0;title\\x07");  // OSC window title, BEL
  EXPECT_EQ(printable("x\ny\tz\r"), "x\\x0ay\\x09z\\x0d");
  EXPECT_EQ(printable(std::string_view("\0\x7f", 2)), "\\x00\\x7f");
  EXPECT_EQ(printable("\xc2\x9b" "31m"), "\\xc2\\x9b31m");  // U+009B, the C1 CSI
  EXPECT_EQ(printable("\xc2\x80\xc2\x9f"), "\\xc2\\x80\\xc2\\x9f");
  EXPECT_EQ(printable("back\\slash"), "back\\\\slash");     // so an escape is never ambiguous
}

// Characters that change how a line reads without being seen were printed raw: U+202E turned
// "moc.elpmaxe" into "example.com" on screen, U+2028 broke a line in some terminals.
TEST(Printable, FormatControlsAreEscaped) {
  EXPECT_EQ(printable("http://\xe2\x80\xaemoc.elpmaxe/"), "http://\\u202emoc.elpmaxe/");
  EXPECT_EQ(printable("a\xe2\x80\xa8"
                      "b\xe2\x80\xa9"
                      "c"),
            "a\\u2028b\\u2029c");
  EXPECT_EQ(printable("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");  // isolates
  EXPECT_EQ(printable("zero\xe2\x80\x8bwidth\xef\xbb\xbf"), "zero\\u200bwidth\\ufeff");
  EXPECT_EQ(printable("\xd8\x9c"), "\\u061c");                                     // Arabic letter mark
  EXPECT_EQ(printable("\xe2\x80\x94 \xe2\x82\xac"), "\xe2\x80\x94 \xe2\x82\xac");  // em dash, euro: unchanged
  EXPECT_EQ(crd::cli::one_line("x\xe2\x80\xaey", 100), "x\\u202ey");
}

TEST(Printable, InvalidUtf8BytesAreEscapedOneByOne) {
  EXPECT_EQ(printable("\x9b"), "\\x9b");                    // a lone C1 byte (8-bit CSI)
  EXPECT_EQ(printable("caf\xe9!"), "caf\\xe9!");            // latin-1
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(printable("\xe6\x97"), "\\xe6\\x97");           // truncated
}

TEST(OneLine, EscapesAndCutsNeverInsideAnEscapeOrCharacter) {
  EXPECT_EQ(cli::one_line("a\nb\tc", 90), "a b c");
  EXPECT_EQ(cli::one_line("a\x1b[31mred", 90), "a\\x1b[31mred");
  EXPECT_EQ(cli::one_line("ab\x1b" "cd", 4), "ab…");        // "\x1b" would not fit whole
  EXPECT_EQ(cli::one_line("ab日本", 6), "ab日…");
  EXPECT_EQ(cli::one_line("abc", 3), "abc");
}

}  // namespace
}  // namespace crd
