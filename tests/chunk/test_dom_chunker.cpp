// The dom chunker: visible text between boundary elements, and charset conversion.
#include <gtest/gtest.h>

#include <random>

#include "chunk_test_util.hpp"

namespace {

using crd::chunk::test::Chunks;

Chunks dom(std::string_view page, std::vector<std::string> tags = {"p", "div"}, std::string_view charset = "") {
  return crd::chunk::test::run("dom", page, std::move(tags), charset);
}

TEST(DomChunker, VisibleTextBetweenBoundaries) {
  EXPECT_EQ(dom("<html><body><p>Hello <b>big</b>\n world</p><div>Two</div></body></html>"),
            (Chunks{"Hello big world", "Two"}));
  EXPECT_EQ(dom("<html><head><title>T</title></head><body>intro<p>a</body>"), (Chunks{"Tintro", "a"}));
  EXPECT_EQ(dom(""), Chunks{});
  EXPECT_EQ(dom("<p> \n </p><p>x"), (Chunks{"x"}));  // whitespace-only chunks are dropped
}

TEST(DomChunker, CaseAndAttributesDoNotMatter) {
  EXPECT_EQ(dom("<P class=x>a<DIV id='y'>b<Div/>c"), (Chunks{"a", "b", "c"}));
}

TEST(DomChunker, SimilarNamesAreNotBoundaries) {
  EXPECT_EQ(dom("<div>a<pre>b</pre><param>c<div2>d</div2></div>"), (Chunks{"abcd"}));
}

TEST(DomChunker, ScriptStyleCommentsTemplateNoscriptAreInvisible) {
  EXPECT_EQ(dom("<p>a<script>x<p>y</script>b<!-- <p>c --><style>p{}</style>d"), (Chunks{"abd"}));
  // (Inside a <div> and with </p>: HTML5 would otherwise close or keep open the noscript.)
  EXPECT_EQ(dom("<div>a<template><p>t</template>b<noscript><p>n</p></noscript>c</div>"), (Chunks{"abc"}));
}

TEST(DomChunker, NestedBoundariesSplitAtEachStart) {
  EXPECT_EQ(dom("<div>x<div>y<p>a</p>z</div>w</div>"), (Chunks{"x", "y", "azw"}));
}

TEST(DomChunker, EntitiesAreDecodedAndNonAsciiSpaceKept) {
  EXPECT_EQ(dom("<p>fish &amp; chips&nbsp;"), (Chunks{"fish & chips\xc2\xa0"}));
}

TEST(DomChunker, ParserInsertedElementsDoNotSplit) {
  // A stray </p> makes gumbo insert an empty <p>; no <p> tag was in the page.
  EXPECT_EQ(dom("<div>a</p>b</div>"), (Chunks{"ab"}));
}

TEST(DomChunker, CustomTagLists) {
  EXPECT_EQ(dom("<ul><li>a<li>b</ul><h2>T</h2><p>x", {"li", "H2"}), (Chunks{"a", "b", "Tx"}));
  EXPECT_EQ(dom("<my-tag>a</my-tag>b<MY-TAG x=1>c", {"my-tag"}), (Chunks{"ab", "c"}));
}

TEST(DomChunker, TruncatedMarkup) {
  EXPECT_EQ(dom("x<p"), (Chunks{"x"}));
  EXPECT_EQ(dom("x<p>y<!-- z"), (Chunks{"x", "y"}));
  EXPECT_EQ(dom("x<p>y<script>z"), (Chunks{"x", "y"}));
}

TEST(DomChunker, DeclaredCharsetsAreConvertedToUtf8) {
  EXPECT_EQ(dom("<p>caf\xe9</p>", {"p"}, "iso-8859-1"), (Chunks{"caf\xc3\xa9"}));
  // Latin-1 labels decode as windows-1252 (curly quotes in 0x80-0x9F).
  EXPECT_EQ(dom("<p>\x93q\x94</p>", {"p"}, "iso-8859-1"), (Chunks{"\xe2\x80\x9cq\xe2\x80\x9d"}));
  EXPECT_EQ(dom("<p>\xa4\xb3\xa4\xf3</p>", {"p"}, "euc-jp"), (Chunks{"\xe3\x81\x93\xe3\x82\x93"}));
  EXPECT_EQ(dom("<p>\x82\xb1\x82\xf1</p>", {"p"}, "shift_jis"), (Chunks{"\xe3\x81\x93\xe3\x82\x93"}));
  EXPECT_EQ(dom("<p>\x1b$B$3$s\x1b(B!</p>", {"p"}, "iso-2022-jp"), (Chunks{"\xe3\x81\x93\xe3\x82\x93!"}));
  EXPECT_EQ(dom("<p>caf\xc3\xa9</p>", {"p"}, "utf-8"), (Chunks{"caf\xc3\xa9"}));
}

TEST(DomChunker, UndecodableBytesBecomeReplacementCharacters) {
  const std::string fffd = "\xef\xbf\xbd";
  // 0xA0 alone and a cut-off lead byte are not EUC-JP.
  EXPECT_EQ(dom("<p>a\xff" "b\xa4", {"p"}, "euc-jp"), (Chunks{"a" + fffd + "b" + fffd}));
  EXPECT_EQ(dom("<p>\x1b$B\xff\xff\x1b(B</p><p>ok", {"p"}, "iso-2022-jp"), (Chunks{fffd + fffd, "ok"}));
  // An unknown label leaves the bytes to gumbo, which replaces invalid UTF-8.
  EXPECT_EQ(dom("<p>caf\xe9", {"p"}, "x-no-such-charset"), (Chunks{"caf" + fffd}));
}

// UTF-16 as a Windows editor saves it: a byte-order mark, no charset anywhere.
std::string utf16(std::u16string_view text, bool big_endian) {
  std::string out = big_endian ? "\xFE\xFF" : "\xFF\xFE";
  for (char16_t u : text) {
    const char hi = static_cast<char>(u >> 8), lo = static_cast<char>(u & 0xFF);
    out += big_endian ? hi : lo;
    out += big_endian ? lo : hi;
  }
  return out;
}

TEST(DomChunker, ByteOrderMarksDecideTheEncodingWithoutACharset) {
  // "café", "日本", and U+1F600 (a surrogate pair) in two paragraphs.
  const std::u16string_view page = u"<html><body><p>caf\u00e9 \u65e5\u672c</p><div>\U0001F600 ok</div></body></html>";
  const Chunks want{"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80 ok"};
  EXPECT_EQ(dom(utf16(page, false)), want);
  EXPECT_EQ(dom(utf16(page, true)), want);
  // The mark wins over a declared charset (browsers do the same).
  EXPECT_EQ(dom(utf16(page, false), {"p", "div"}, "iso-8859-1"), want);
  // A UTF-8 mark is dropped, not kept as U+FEFF at the start of the first chunk.
  EXPECT_EQ(dom("\xEF\xBB\xBFlead<p>caf\xc3\xa9"), (Chunks{"lead", "caf\xc3\xa9"}));
  EXPECT_EQ(dom("\xEF\xBB\xBFlead<p>caf\xc3\xa9", {"p"}, "iso-8859-1"), (Chunks{"lead", "caf\xc3\xa9"}));
  // An odd last byte is a cut-off code unit: one replacement character.
  EXPECT_EQ(dom(utf16(u"<p>a", false) + "b"), (Chunks{"a\xef\xbf\xbd"}));
}

TEST(DomChunker, NestingIsMeasuredOnTheDecodedPage) {
  std::u16string deep;
  for (int i = 0; i < 5000; ++i) deep += u"<div>";
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Dom, {});
  EXPECT_EQ(chunker->chunk(utf16(deep, false), "", [](std::string_view) {}), "dom.too_deep");
}

TEST(DomChunker, RandomBytesNeverCrash) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Dom, {});
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> byte(0, 255);
  const char* charsets[] = {"", "iso-8859-1", "shift_jis", "iso-2022-jp", "utf-16", "bogus"};
  for (int round = 0; round < 60; ++round) {
    std::string page(static_cast<std::size_t>(round * 37), '\0');
    for (char& c : page) c = static_cast<char>(byte(rng));
    page = "<p>" + page + "<div>" + page;
    chunker->chunk(page, charsets[round % 6], [&](std::string_view c) {
      ASSERT_FALSE(c.empty());
      EXPECT_NE(c.front(), ' ');
      EXPECT_NE(c.back(), ' ');
    });
  }
}

}  // namespace

// Pages nested deeper than the cap are skipped with a reason (gumbo is quadratic in depth); pages
// with many elements whose end tags HTML lets authors omit, or void elements, are not deep.
TEST(DomChunker, SkipsPagesNestedBeyondTheCapButNotFlatOnes) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Dom, {});
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "<div>";
  deep += "x";
  int emitted = 0;
  EXPECT_EQ(chunker->chunk(deep, "", [&](std::string_view) { ++emitted; }), "dom.too_deep");
  EXPECT_EQ(emitted, 0);

  std::string flat = "<html><body>";
  for (int i = 0; i < 10000; ++i) flat += "<p>para<br><img src=x><li>item<span/>";
  std::vector<std::string> chunks;
  EXPECT_EQ(chunker->chunk(flat, "", [&](std::string_view c) { chunks.emplace_back(c); }), "");
  EXPECT_EQ(chunks.size(), 10000u);

  std::string shallow;
  for (int i = 0; i < 100; ++i) shallow += "<div><span>a</span>";  // 100 nested: every <div> a boundary
  chunks.clear();
  EXPECT_EQ(chunker->chunk(shallow, "", [&](std::string_view c) { chunks.emplace_back(c); }), "");
  EXPECT_EQ(chunks.size(), 100u);
}
