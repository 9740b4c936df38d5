// HTML5 encoding sniffing: byte-order marks, the HTTP label, the <meta> prescan, the label table.
#include <gtest/gtest.h>

#include <string>

#include "chunk_test_util.hpp"
#include "encoding_labels.hpp"
#include "encoding_sniffer.hpp"

namespace {

using crd::chunk::detail::encoding_for_label;
using crd::chunk::detail::kPrescanBytes;
using crd::chunk::detail::prescan_meta_encoding;
using crd::chunk::detail::sniff_encoding;

std::string_view sniff(std::string_view page, std::string_view http = "") { return sniff_encoding(page, http).encoding; }

TEST(EncodingLabels, FollowTheWhatwgTable) {
  EXPECT_EQ(encoding_for_label("iso-8859-1"), "windows-1252");
  EXPECT_EQ(encoding_for_label("Latin1"), "windows-1252");
  EXPECT_EQ(encoding_for_label(" US-ASCII\t"), "windows-1252");
  EXPECT_EQ(encoding_for_label("ascii"), "windows-1252");
  EXPECT_EQ(encoding_for_label("UTF8"), "utf-8");
  EXPECT_EQ(encoding_for_label("utf-16"), "utf-16le");
  EXPECT_EQ(encoding_for_label("unicodeFFFE"), "utf-16be");
  EXPECT_EQ(encoding_for_label("sjis"), "shift_jis");
  EXPECT_EQ(encoding_for_label("gb2312"), "gbk");
  EXPECT_EQ(encoding_for_label("ks_c_5601-1987"), "euc-kr");
  EXPECT_EQ(encoding_for_label("iso-8859-9"), "windows-1254");
  EXPECT_EQ(encoding_for_label("iso-2022-kr"), "replacement");
  EXPECT_EQ(encoding_for_label("x-user-defined"), "x-user-defined");
  // Not labels: iconv aliases, UTF-7/32, empty, inner spaces, a label with a suffix.
  for (const char* bad : {"", "  ", "utf-7", "utf-32", "ucs-4", "latin 1", "utf-8x", "x-no-such-charset", "8859-1"}) {
    EXPECT_EQ(encoding_for_label(bad), "") << bad;
  }
}

TEST(EncodingSniffer, ByteOrderMarksWinOverEverything) {
  const std::string meta = "<meta charset=iso-8859-2>";
  EXPECT_EQ(sniff_encoding("\xEF\xBB\xBF" + meta, "shift_jis").encoding, "utf-8");
  EXPECT_EQ(sniff_encoding("\xEF\xBB\xBF" + meta, "shift_jis").bom_bytes, 3u);
  EXPECT_EQ(sniff_encoding("\xFF\xFE<\0p\0", "iso-8859-1").encoding, "utf-16le");
  EXPECT_EQ(sniff_encoding("\xFF\xFE<\0p\0", "").bom_bytes, 2u);
  EXPECT_EQ(sniff_encoding("\xFE\xFF\0<", "utf-8").encoding, "utf-16be");
  EXPECT_EQ(sniff_encoding("\xFE\xFF\0<", "utf-8").bom_bytes, 2u);
  EXPECT_EQ(sniff_encoding(meta, "").bom_bytes, 0u);
}

TEST(EncodingSniffer, HttpLabelWinsOverMetaUnlessItNamesNoEncoding) {
  const std::string page = "<html><head><meta charset=\"iso-8859-1\"></head>";
  EXPECT_EQ(sniff(page, "shift_jis"), "shift_jis");
  EXPECT_EQ(sniff(page, "utf-8"), "utf-8");
  EXPECT_EQ(sniff(page, "utf-16"), "utf-16le");  // only a meta's UTF-16 is read as UTF-8
  EXPECT_EQ(sniff(page, "x-no-such-charset"), "windows-1252");
  EXPECT_EQ(sniff(page, ""), "windows-1252");
  EXPECT_EQ(sniff("<p>no declaration"), "utf-8");  // crd's default
}

TEST(EncodingSniffer, MetaCharsetForms) {
  EXPECT_EQ(prescan_meta_encoding("<meta charset=\"iso-8859-1\">"), "windows-1252");
  EXPECT_EQ(prescan_meta_encoding("<meta charset='ISO-8859-1'>"), "windows-1252");
  EXPECT_EQ(prescan_meta_encoding("<META CHARSET=latin1>"), "windows-1252");
  EXPECT_EQ(prescan_meta_encoding("<meta charset = \" koi8-r \" >"), "koi8-r");
  EXPECT_EQ(prescan_meta_encoding("<meta/charset=euc-jp>"), "euc-jp");
  EXPECT_EQ(prescan_meta_encoding("<meta name=x charset=gbk>"), "gbk");
  // Only the first of two charset attributes counts, and an unknown label ends that meta.
  EXPECT_EQ(prescan_meta_encoding("<meta charset=bogus charset=latin1>"), "");
  EXPECT_EQ(prescan_meta_encoding("<meta charset=bogus><meta charset=latin2>"), "iso-8859-2");
  // UTF-16 in a meta cannot be true (the meta was just read as ASCII); x-user-defined is 1252.
  EXPECT_EQ(prescan_meta_encoding("<meta charset=utf-16>"), "utf-8");
  EXPECT_EQ(prescan_meta_encoding("<meta charset=utf-16be>"), "utf-8");
  EXPECT_EQ(prescan_meta_encoding("<meta charset=x-user-defined>"), "windows-1252");
  // "<meta" must be followed by a space or '/': <metadata> is another tag.
  EXPECT_EQ(prescan_meta_encoding("<metadata charset=latin1>"), "");
}

TEST(EncodingSniffer, MetaHttpEquivForms) {
  EXPECT_EQ(prescan_meta_encoding(
                "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">"),
            "windows-1252");
  EXPECT_EQ(prescan_meta_encoding("<meta content='text/html;charset=\"latin2\"' http-equiv=content-type>"),
            "iso-8859-2");
  EXPECT_EQ(prescan_meta_encoding("<meta http-equiv=content-type content=\"text/html; CHARSET = sjis ; x\">"),
            "shift_jis");
  // Without the pragma the content attribute means nothing.
  EXPECT_EQ(prescan_meta_encoding("<meta content=\"text/html; charset=iso-8859-1\">"), "");
  EXPECT_EQ(prescan_meta_encoding("<meta http-equiv=refresh content=\"text/html; charset=iso-8859-1\">"), "");
  // An unmatched quote, or "charset" with no '=', names nothing.
  EXPECT_EQ(prescan_meta_encoding("<meta http-equiv=content-type content='charset=\"latin1'>"), "");
  EXPECT_EQ(prescan_meta_encoding("<meta http-equiv=content-type content='charset; charset=latin1'>"),
            "windows-1252");
  // A charset attribute beside the pragma wins, whatever the order.
  EXPECT_EQ(prescan_meta_encoding("<meta http-equiv=content-type content='charset=latin2' charset=koi8-u>"),
            "koi8-u");
}

TEST(EncodingSniffer, CommentsTagsAndQuotedValuesAreSkipped) {
  EXPECT_EQ(prescan_meta_encoding("<!-- <meta charset=latin2> --><meta charset=latin1>"), "windows-1252");
  EXPECT_EQ(prescan_meta_encoding("<!--><meta charset=latin1>"), "windows-1252");  // "<!-->" is a comment
  EXPECT_EQ(prescan_meta_encoding("<!-- never closed <meta charset=latin1>"), "");
  EXPECT_EQ(prescan_meta_encoding("<!DOCTYPE html><?xml x?><html lang=fr><meta charset=latin1>"), "windows-1252");
  // A meta inside another tag's quoted attribute value is not one.
  EXPECT_EQ(prescan_meta_encoding("<a title='<meta charset=latin2>'><meta charset=latin1>"), "windows-1252");
  EXPECT_EQ(prescan_meta_encoding("</div x='<meta charset=latin2>'><meta charset=latin1>"), "windows-1252");
  // Text that is not a tag is passed over.
  EXPECT_EQ(prescan_meta_encoding("1 < 2 <meta charset=latin1>"), "windows-1252");
}

TEST(EncodingSniffer, OnlyTheFirst1024BytesArePrescanned) {
  const std::string meta = "<meta charset=\"iso-8859-1\">";
  const std::string pad_in(kPrescanBytes - meta.size(), ' ');
  EXPECT_EQ(sniff(pad_in + meta), "windows-1252");
  EXPECT_EQ(sniff(pad_in + " " + meta), "utf-8");  // its last byte is byte 1025
  EXPECT_EQ(sniff(std::string(2000, 'x') + meta), "utf-8");
}

TEST(EncodingSniffer, TruncatedMarkupNamesNothing) {
  for (const char* page : {"<meta charset=latin1", "<meta charset='latin1", "<meta charset=", "<meta ",
                           "<meta", "<", "<a href='x", "<!doctype", "<meta http-equiv=content-type content='charset=latin1'"}) {
    EXPECT_EQ(prescan_meta_encoding(page), "") << page;
  }
}

// The dom chunker decodes with what sniffing found.
TEST(EncodingSniffer, DomChunkerDecodesLatin1DeclaredInThePage) {
  using crd::chunk::test::Chunks;
  using crd::chunk::test::run;
  const std::string body = "<p>Caf\xe9 cr\xe8me</p>";
  const Chunks want{"Caf\xc3\xa9 cr\xc3\xa8me"};
  EXPECT_EQ(run("dom", "<meta charset=\"iso-8859-1\">" + body), want);
  EXPECT_EQ(run("dom", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">" + body), want);
  EXPECT_EQ(run("sentence", "<meta charset=latin1>" + body), want);
  // The HTTP label wins: as UTF-8 these bytes are invalid.
  EXPECT_EQ(run("dom", "<meta charset=latin1>" + body, {"p"}, "utf-8"), (Chunks{"Caf\xef\xbf\xbd cr\xef\xbf\xbdme"}));
  // x-user-defined and the replacement encoding, which glibc does not have.
  EXPECT_EQ(run("dom", "<p>a\x80", {"p"}, "x-user-defined"), (Chunks{"a\xef\x9e\x80"}));
  EXPECT_EQ(run("dom", "<p>a", {"p"}, "iso-2022-kr"), (Chunks{"\xef\xbf\xbd"}));
}

}  // namespace
