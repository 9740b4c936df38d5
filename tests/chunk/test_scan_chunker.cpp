// The scan chunker on the contract of docs/chunking.md, one rule per test.
#include <gtest/gtest.h>

#include "chunk_test_util.hpp"
#include "crd/base/error.hpp"
#include "crd/hash/sha1.hpp"

namespace {

using crd::chunk::test::Chunks;

Chunks scan(std::string_view page, std::vector<std::string> tags = {"p", "div"}) {
  return crd::chunk::test::run("scan", page, std::move(tags));
}

TEST(ScanChunker, SplitsAtParagraphsAndDivs) {
  EXPECT_EQ(scan("<html><body><p>Hello</p><p>World</p></body></html>"),
            (Chunks{"<html><body>", "<p>Hello</p>", "<p>World</p></body></html>"}));
  EXPECT_EQ(scan("<div>a</div><p>b"), (Chunks{"<div>a</div>", "<p>b"}));
  EXPECT_EQ(scan("no tags at all"), (Chunks{"no tags at all"}));
}

TEST(ScanChunker, TagNamesAreCaseInsensitive) {
  EXPECT_EQ(scan("<P>a<Div>b<dIV>c<DIV>d"), (Chunks{"<P>a", "<Div>b", "<dIV>c", "<DIV>d"}));
}

TEST(ScanChunker, AttributesAndEveryDelimiter) {
  EXPECT_EQ(scan("x<p class='a'>1<p\tid=2>2<p\n>3<p\f>4<p\r>5<p/>6<p>7"),
            (Chunks{"x", "<p class='a'>1", "<p id=2>2", "<p >3", "<p >4", "<p >5", "<p/>6", "<p>7"}));
}

TEST(ScanChunker, SimilarNamesAreNotBoundaries) {
  EXPECT_EQ(scan("<pre>x</pre><param name=a><div2>y<p-x><pa><divx><p_>"),
            (Chunks{"<pre>x</pre><param name=a><div2>y<p-x><pa><divx><p_>"}));
  EXPECT_EQ(scan("a</p>b</div>c< p>d"), (Chunks{"a</p>b</div>c< p>d"}));  // end tags, space after '<'
}

TEST(ScanChunker, NoBoundaryInsideComments) {
  EXPECT_EQ(scan("a<!-- <p>x <div> --><p>b"), (Chunks{"a<!-- <p>x <div> -->", "<p>b"}));
  EXPECT_EQ(scan("a<!----><p>b"), (Chunks{"a<!---->", "<p>b"}));
  // "-->" may reuse the opener's dashes, as in HTML5.
  EXPECT_EQ(scan("a<!--><p>b"), (Chunks{"a<!-->", "<p>b"}));
  EXPECT_EQ(scan("a<!---><p>b"), (Chunks{"a<!--->", "<p>b"}));
  // An unterminated comment runs to the end of the page.
  EXPECT_EQ(scan("a<p>b<!-- <p>c <div>d"), (Chunks{"a", "<p>b<!-- <p>c <div>d"}));
  // "<!" without "--" is not a comment (a doctype, say); "<!-" neither.
  EXPECT_EQ(scan("<!DOCTYPE html><p>a<!-<p>b"), (Chunks{"<!DOCTYPE html>", "<p>a<!-", "<p>b"}));
}

TEST(ScanChunker, NoBoundaryInsideScriptOrStyle) {
  EXPECT_EQ(scan("<script>if (a<p) s='<p>';</script><p>b"),
            (Chunks{"<script>if (a<p) s='<p>';</script>", "<p>b"}));
  EXPECT_EQ(scan("<style>div > p { }</style><div>b"), (Chunks{"<style>div > p { }</style>", "<div>b"}));
  EXPECT_EQ(scan("<SCRIPT type=x><p></ScRiPt ><p>b"), (Chunks{"<SCRIPT type=x><p></ScRiPt >", "<p>b"}));
  EXPECT_EQ(scan("<script><p></script/><p>b"), (Chunks{"<script><p></script/>", "<p>b"}));
  EXPECT_EQ(scan("<script>x<p></script\n><p>b"), (Chunks{"<script>x<p></script >", "<p>b"}));
  // "</scripty" and "</style" do not end a script.
  EXPECT_EQ(scan("<script><p></scripty><p></style><p></script><p>b"),
            (Chunks{"<script><p></scripty><p></style><p></script>", "<p>b"}));
  // Unterminated script (or one that ends exactly at "</script" at the end) runs to the end.
  EXPECT_EQ(scan("a<p>x<script><p>y"), (Chunks{"a", "<p>x<script><p>y"}));
  EXPECT_EQ(scan("<script><p></script"), (Chunks{"<script><p></script"}));
  // "<scripts>" and "<styles>" are other tags: their content is ordinary markup.
  EXPECT_EQ(scan("<scripts><p>a<styled><p>b"), (Chunks{"<scripts>", "<p>a<styled>", "<p>b"}));
  // <script> inside a comment opens nothing.
  EXPECT_EQ(scan("<!-- <script> --><p>a"), (Chunks{"<!-- <script> -->", "<p>a"}));
  // <!-- inside a script is script text, not a comment.
  EXPECT_EQ(scan("<script><!-- </script><p>a"), (Chunks{"<script><!-- </script>", "<p>a"}));
}

TEST(ScanChunker, NestedTagsEachStartAChunk) {
  EXPECT_EQ(scan("<div><div><p>a</p></div></div>"), (Chunks{"<div>", "<div>", "<p>a</p></div></div>"}));
}

TEST(ScanChunker, TruncatedTagsAtTheEnd) {
  EXPECT_EQ(scan("x<p"), (Chunks{"x", "<p"}));
  EXPECT_EQ(scan("x<div"), (Chunks{"x", "<div"}));
  EXPECT_EQ(scan("x<di"), (Chunks{"x<di"}));
  EXPECT_EQ(scan("x<"), (Chunks{"x<"}));
  EXPECT_EQ(scan("<"), (Chunks{"<"}));
  EXPECT_EQ(scan("x<!--"), (Chunks{"x<!--"}));
  EXPECT_EQ(scan("x<script"), (Chunks{"x<script"}));
}

TEST(ScanChunker, EmptyChunksAreDropped) {
  EXPECT_EQ(scan(""), Chunks{});
  EXPECT_EQ(scan(" \r\n\t\f "), Chunks{});
  EXPECT_EQ(scan("  \n<p>a"), (Chunks{"<p>a"}));
  EXPECT_EQ(scan("<p>a"), (Chunks{"<p>a"}));
}

TEST(ScanChunker, WhitespaceNormalized) {
  EXPECT_EQ(scan("<p>a \t\n\f\r b  </p>\r\n<p>\n c"), (Chunks{"<p>a b </p>", "<p> c"}));
  EXPECT_EQ(scan("<p>a\vb\xc2\xa0\xc2\xa0 c"), (Chunks{"<p>a\vb\xc2\xa0\xc2\xa0 c"}));
  // Long chunks go through the vector kernel.
  const std::string body(100, 'x');
  EXPECT_EQ(scan("<p>" + body + std::string(50, ' ') + body + "\n\n<p>" + std::string(70, '\t')),
            (Chunks{"<p>" + body + " " + body, "<p>"}));
}

TEST(ScanChunker, CustomTagLists) {
  EXPECT_EQ(scan("<ul><li>a<li>b</ul><H2>T</h2><p>x", {"li", "H2"}),
            (Chunks{"<ul>", "<li>a", "<li>b</ul>", "<H2>T</h2><p>x"}));
  EXPECT_EQ(scan("<p>a<div>b", {}), (Chunks{"<p>a<div>b"}));
  // A boundary tag that is also raw text: it splits, and its content is still skipped.
  EXPECT_EQ(scan("a<script><p>x</script><p>b", {"p", "script"}),
            (Chunks{"a", "<script><p>x</script>", "<p>b"}));
}

TEST(ScanChunker, BadOptionsAreUsageErrors) {
  crd::chunk::ChunkerOptions bad;
  bad.tags = {""};
  EXPECT_THROW(crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, bad), crd::UsageError);
  bad.tags = {"p>"};
  EXPECT_THROW(crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, bad), crd::UsageError);
  EXPECT_FALSE(crd::parse_enum<crd::chunk::ChunkerKind>("regex").has_value());
  EXPECT_EQ(crd::parse_enum<crd::chunk::ChunkerKind>("dom"), crd::chunk::ChunkerKind::Dom);
  EXPECT_STREQ(crd::name_of(crd::chunk::ChunkerKind::Scan), "scan");
}

TEST(ScanChunker, ChunkHashIsSha1OfNormalizedBytes) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, {});
  std::vector<crd::Digest> hashes;
  std::vector<std::size_t> lengths;
  chunker->chunk("<p>a  b</p>\n<P>a\tb</p>", "", [&](std::string_view c) {
    hashes.push_back(crd::sha1(c));
    lengths.push_back(c.size());
  });
  ASSERT_EQ(hashes.size(), 2U);
  EXPECT_EQ(hashes[0], crd::sha1("<p>a b</p>"));
  EXPECT_EQ(lengths[0], 10U);
  EXPECT_NE(hashes[0], hashes[1]);  // the scan keeps markup, so <p> and <P> differ
}

TEST(ScanChunker, ReusableAcrossPages) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, {});
  const std::string big = "<p>" + std::string(100000, 'a') + "<p>b";
  EXPECT_EQ(crd::chunk::test::run(*chunker, big).size(), 2U);
  EXPECT_EQ(crd::chunk::test::run(*chunker, "<p>x<p>y"), (Chunks{"<p>x", "<p>y"}));
  EXPECT_EQ(crd::chunk::test::run(*chunker, "<script>"), (Chunks{"<script>"}));
}

}  // namespace

namespace {

// --boundary-match prefix (configs/released-code.ini): the paper's released code splits at every
// "<p", so <pre>, <param> and <path> start chunks too; the contract's tag mode does not.
Chunks scan_prefix(std::string_view page) {
  crd::chunk::ChunkerOptions options;
  options.boundary_match = crd::chunk::BoundaryMatch::Prefix;
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, options);
  return crd::chunk::test::run(*chunker, page);
}

constexpr std::string_view kPrefixPage =
    "<html><p>Intro text</p>\n<pre>code  block</pre><object><param name=a></object>"
    "<P>Two</P><div2>x</div2><!-- <pre> --><script>'<pre>'</script></p>";

TEST(ScanChunkerPrefixMode, SplitsAtEveryTagNameStartingWithABoundaryTag) {
  const Chunks tag = scan(kPrefixPage);
  EXPECT_EQ(tag, (Chunks{"<html>", "<p>Intro text</p> <pre>code block</pre><object><param name=a></object>",
                         "<P>Two</P><div2>x</div2><!-- <pre> --><script>'<pre>'</script></p>"}));
  const Chunks prefix = scan_prefix(kPrefixPage);
  EXPECT_EQ(prefix, (Chunks{"<html>", "<p>Intro text</p>", "<pre>code block</pre><object>", "<param name=a></object>",
                            "<P>Two</P>", "<div2>x</div2><!-- <pre> --><script>'<pre>'</script></p>"}))
      << "<pre, <param, <div2 split; comments and script still hide boundaries; </p does not split";
  // So do the digests: the paragraph before <pre> is its own chunk only in prefix mode.
  EXPECT_EQ(crd::sha1(prefix[1]), crd::sha1("<p>Intro text</p>"));
  EXPECT_EQ(crd::sha1(tag[1]), crd::sha1("<p>Intro text</p> <pre>code block</pre><object><param name=a></object>"));
  EXPECT_NE(crd::sha1(prefix[1]), crd::sha1(tag[1]));
}

TEST(ScanChunkerPrefixMode, DomChunkerRefusesIt) {
  crd::chunk::ChunkerOptions options;
  options.boundary_match = crd::chunk::BoundaryMatch::Prefix;
  try {
    crd::chunk::make_chunker(crd::chunk::ChunkerKind::Dom, options);
    ADD_FAILURE() << "dom accepted --boundary-match prefix";
  } catch (const crd::UsageError& e) {
    EXPECT_STREQ(e.what(), "--boundary-match prefix needs --chunker scan (dom splits at whole elements)");
  }
}

}  // namespace
