// Hand-built damaged archives: every kind of bad input is skipped, counted and reported, the
// records around it survive, and nothing crashes or hangs.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "archive_builder.hpp"
#include "support/test_paths.hpp"

namespace crd::io::test {
namespace {

std::string body_of(int i) {
  return "<html><body><p>page " + std::to_string(i) + " " + std::string(200 + i, 'x') + "</p></body></html>";
}
std::string uri_of(int i) { return "http://example.org/" + std::to_string(i); }

class HostileArchives : public ::testing::Test {
 protected:
  std::string dir_ = crd::testing::make_temp_dir("io-hostile");
  ReadResult read_bytes(const std::string& name, const std::string& bytes, const ReadOptions& o = {}) {
    return read_file(write_file(dir_, name, bytes), InputKind::Warc, o);
  }
  static std::vector<std::string> urls(const ReadResult& r) {
    std::vector<std::string> out;
    for (const auto& d : r.docs) out.push_back(d.url);
    return out;
  }
};

TEST_F(HostileArchives, ChunkedTransferEncodingIsDecoded) {
  WarcRecordSpec s;
  s.uri = "http://example.org/chunked";
  std::string payload = chunked({"<html><p>hel", "lo</p>", std::string(5000, 'y') + "</html>"});
  payload.insert(payload.find("\r\n"), ";ext=1");  // a chunk extension must be ignored
  s.block = http_response(200, "Transfer-Encoding: chunked\r\n", payload);
  ReadResult r = read_bytes("chunked.warc.gz", gzip_member(warc_record(s)));
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].body, "<html><p>hello</p>" + std::string(5000, 'y') + "</html>");
  EXPECT_EQ(r.docs[0].charset, "utf-8");
}

TEST_F(HostileArchives, BadChunkSizesAreSkipped) {
  WarcRecordSpec s;
  s.block = http_response(200, "Transfer-Encoding: chunked\r\n", "5\r\nhello\r\nZZ\r\nmore\r\n0\r\n\r\n");
  WarcRecordSpec big = s;  // a chunk claiming more bytes than the record holds
  big.block = http_response(200, "Transfer-Encoding: chunked\r\n", "ffffff\r\nshort\r\n0\r\n\r\n");
  ReadResult r = read_bytes("badchunk.warc", warc_record(s) + warc_record(big) + warc_response(uri_of(1), body_of(1)));
  EXPECT_EQ(r.get("skipped.http.bad_chunked"), 2u);
  EXPECT_EQ(urls(r), std::vector<std::string>{uri_of(1)});
}

TEST_F(HostileArchives, ContentEncodings) {
  std::string html = body_of(7);
  auto rec = [&](const std::string& headers, const std::string& body) {
    WarcRecordSpec s;
    s.block = http_response(200, headers, body);
    return warc_record(s);
  };
  std::string file = rec("Content-Encoding: gzip\r\n", gzip_member(html)) +
                     rec("Content-Encoding: x-gzip\r\n", gzip_member(html)) +
                     rec("Content-Encoding: deflate\r\n", zlib_compress(html, false)) +
                     rec("Content-Encoding: deflate\r\n", zlib_compress(html, true)) +
                     rec("Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n", chunked({gzip_member(html)})) +
                     rec("Content-Encoding: gzip\r\n", "\x1f\x8b definitely not gzip") +
                     rec("Content-Encoding: br\r\n", "brotli bytes");
  ReadResult r = read_bytes("encodings.warc", file);
  ASSERT_EQ(r.docs.size(), 5u);
  for (const auto& d : r.docs) EXPECT_EQ(d.body, html);
  EXPECT_EQ(r.get("skipped.http.bad_encoding"), 1u);
  EXPECT_EQ(r.get("skipped.http.unsupported_encoding"), 1u);
}

TEST_F(HostileArchives, RecordKindsAndStatus) {
  WarcRecordSpec dns;
  dns.uri = "dns:example.org";
  dns.content_type = "text/dns";
  dns.block = "20240101000000\nexample.org. 300 IN A 192.0.2.1\n";
  WarcRecordSpec res;
  res.type = "resource";
  res.uri = "<http://example.org/notes.txt>";  // WARC 1.0 drafts wrote the URI in <>
  res.content_type = "Text/Plain; Charset=\"ISO-8859-1\"";
  res.block = "plain notes";
  WarcRecordSpec odd;
  odd.type = "x-custom";
  WarcRecordSpec meta;
  meta.type = "metadata";
  WarcRecordSpec conv;
  conv.type = "conversion";
  WarcRecordSpec notype;
  notype.omit_type = true;
  WarcRecordSpec nostatus;  // "HTTP/1.0 200" without reason text is still a 200
  nostatus.uri = "http://example.org/nostatus";
  nostatus.block = "HTTP/1.0 200\r\nContent-Type: text/plain\r\n\r\nok";
  std::string file = warc_record(dns) + warc_record(res) + warc_record(odd) + warc_record(meta) + warc_record(conv) +
                     warc_record(notype) + warc_response(uri_of(1), "moved", 301) +
                     warc_response(uri_of(2), "missing", 404) + warc_record(nostatus);
  ReadResult r = read_bytes("kinds.warc", file);
  std::map<std::string, std::uint64_t> want = {{"warc.non_http", 1},   {"warc.unknown_type", 1}, {"warc.metadata", 1},
                                               {"warc.conversion", 1}, {"warc.bad_header", 1},   {"http.non_2xx", 2}};
  EXPECT_EQ(r.skips(), want);
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].url, "http://example.org/notes.txt");
  EXPECT_EQ(r.docs[0].content_type, "text/plain");
  EXPECT_EQ(r.docs[0].charset, "iso-8859-1");
  EXPECT_EQ(r.docs[0].body, "plain notes");
  EXPECT_EQ(r.docs[1].body, "ok");
  EXPECT_EQ(r.get("records"), 9u);
}

TEST_F(HostileArchives, GarbageBetweenRecordsIsSkippedOnce) {
  std::string file = warc_response(uri_of(1), body_of(1)) + "junk junk\r\nWARC/x not a record\r\n" +
                     warc_response(uri_of(2), body_of(2)) + std::string(100000, 'z') + warc_response(uri_of(3), body_of(3));
  ReadResult r = read_bytes("garbage.warc", file);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2), uri_of(3)}));
  EXPECT_EQ(r.get("skipped.garbage"), 2u);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].reason, "garbage");
  EXPECT_EQ(r.errors[0].offset, warc_response(uri_of(1), body_of(1)).size());
}

TEST_F(HostileArchives, WrongOrMissingContentLength) {
  WarcRecordSpec small;
  small.uri = "http://example.org/small";
  small.block = http_response(200, "", body_of(10));
  small.length = std::to_string(small.block.size() - 7);
  WarcRecordSpec large = small;
  large.uri = "http://example.org/large";
  large.length = std::to_string(small.block.size() + 50);
  WarcRecordSpec none = small;
  none.uri = "http://example.org/none";
  none.omit_length = true;
  WarcRecordSpec junk = small;
  junk.length = "12abc";
  std::string file = warc_record(small) + warc_response(uri_of(1), body_of(1)) + warc_record(large) +
                     warc_response(uri_of(2), body_of(2)) + warc_record(none) + warc_response(uri_of(3), body_of(3)) +
                     warc_record(junk) + warc_response(uri_of(4), body_of(4));
  for (bool gz : {false, true}) {
    SCOPED_TRACE(gz ? "gzip" : "plain");
    ReadResult r = read_bytes(gz ? "len.warc.gz" : "len.warc", gz ? gzip_member(file) : file);
    EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2), uri_of(3), uri_of(4)}));
    EXPECT_EQ(r.get("skipped.warc.bad_length"), 4u);
    EXPECT_EQ(r.errors.size(), 4u);
  }
}

// Three records, one gzip member each, as most .warc.gz files are written.
std::vector<std::string> three_members() {
  return {gzip_member(warc_response(uri_of(1), body_of(1))), gzip_member(warc_response(uri_of(2), body_of(2))),
          gzip_member(warc_response(uri_of(3), body_of(3)))};
}

TEST_F(HostileArchives, PerRecordGzipOffsetsPointAtMembers) {
  auto m = three_members();
  ReadResult r = read_bytes("ok.warc.gz", m[0] + m[1] + m[2]);
  ASSERT_EQ(r.docs.size(), 3u);
  EXPECT_EQ(r.docs[0].offset, 0u);
  EXPECT_EQ(r.docs[1].offset, m[0].size());
  EXPECT_EQ(r.docs[2].offset, m[0].size() + m[1].size());
  EXPECT_EQ(r.get("input.bytes"), m[0].size() + m[1].size() + m[2].size());
}

TEST_F(HostileArchives, WholeFileGzipMember) {
  std::string plain = warc_response(uri_of(1), body_of(1)) + warc_response(uri_of(2), body_of(2));
  ReadResult r = read_bytes("whole.warc.gz", gzip_member(plain));
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[1].offset, 0u);
  EXPECT_EQ(r.docs[1].stream_offset, warc_response(uri_of(1), body_of(1)).size());
}

TEST_F(HostileArchives, TruncatedLastMember) {
  auto m = three_members();
  ReadResult r = read_bytes("trunc.warc.gz", m[0] + m[1] + m[2].substr(0, m[2].size() / 2));
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2)}));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"gzip.truncated", 1}}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].offset, m[0].size() + m[1].size());
}

TEST_F(HostileArchives, TruncatedMiddleMemberThenRecovery) {
  auto m = three_members();
  ReadResult r = read_bytes("trunc-mid.warc.gz", m[0] + m[1].substr(0, m[1].size() / 2) + m[2]);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(3)}));
  // Inflate reads on into the next member's bytes, so the damage shows as a bad deflate stream or
  // (when those bytes happen to decode) a CRC mismatch; either way one event, one lost record.
  EXPECT_EQ(r.get("skipped.gzip.truncated") + r.get("skipped.gzip.corrupt") + r.get("skipped.gzip.crc"), 1u);
  EXPECT_EQ(r.errors.size(), 1u);
}

TEST_F(HostileArchives, CrcErrorDropsOnlyThatRecord) {
  auto m = three_members();
  m[1][m[1].size() - 6] ^= 0x55;  // inside the CRC32 of the trailer
  ReadResult r = read_bytes("crc.warc.gz", m[0] + m[1] + m[2]);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(3)}));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"gzip.crc", 1}}));
}

TEST_F(HostileArchives, CorruptDeflateDataDropsOnlyThatRecord) {
  auto m = three_members();
  for (std::size_t i = 20; i < 40; ++i) m[1][i] = static_cast<char>(0xff);
  ReadResult r = read_bytes("corrupt.warc.gz", m[0] + m[1] + m[2]);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(3)}));
  EXPECT_EQ(r.get("skipped.gzip.corrupt") + r.get("skipped.gzip.crc"), 1u);
}

TEST_F(HostileArchives, GarbageBetweenGzipMembers) {
  auto m = three_members();
  ReadResult r = read_bytes("gzgarbage.warc.gz", m[0] + "\x1f not a member at all" + m[1] + m[2] + "tail");
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2), uri_of(3)}));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"gzip.garbage", 2}}));
}

TEST_F(HostileArchives, RecordOverTheLimitIsSkippedAndReadingGoesOn) {
  ReadOptions o;
  o.max_record_bytes = 4096;
  std::string huge = warc_response("http://example.org/huge", std::string(20000, 'h'));
  std::string file = warc_response(uri_of(1), body_of(1)) + huge + warc_response(uri_of(2), body_of(2));
  for (bool gz : {false, true}) {
    SCOPED_TRACE(gz ? "gzip" : "plain");
    ReadResult r = read_bytes(gz ? "huge.warc.gz" : "huge.warc", gz ? gzip_member(file) : file, o);
    EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2)}));
    EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"record_too_large", 1}}));
  }
  // A record declaring 1 TiB is skipped without trying to hold it. Its declared end lies past the
  // end of the file, so the length is wrong, not merely large.
  WarcRecordSpec s;
  s.block = "tiny";
  s.length = std::to_string(1ull << 40);
  ReadResult r = read_bytes("tib.warc", warc_response(uri_of(1), body_of(1)) + warc_record(s));
  EXPECT_EQ(urls(r), std::vector<std::string>{uri_of(1)});
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"warc.bad_length", 1}}));
  // A gzip bomb in Content-Encoding is refused too.
  WarcRecordSpec bomb;
  bomb.block = http_response(200, "Content-Encoding: gzip\r\n", gzip_member(std::string(100000, 'b')));
  ReadResult b = read_bytes("bomb.warc", warc_record(bomb), o);
  EXPECT_EQ(b.get("skipped.record_too_large"), 1u);
}

TEST_F(HostileArchives, TruncatedRecordAtEndOfPlainFile) {
  std::string second = warc_response(uri_of(2), body_of(2));
  ReadResult r = read_bytes("cut.warc", warc_response(uri_of(1), body_of(1)) + second.substr(0, second.size() - 40));
  EXPECT_EQ(urls(r), std::vector<std::string>{uri_of(1)});
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"warc.truncated", 1}}));
}

TEST_F(HostileArchives, ErrorListIsBoundedButCountsAreNot) {
  std::string file;
  for (int i = 0; i < 150; ++i) file += "garbage line\n" + warc_response(uri_of(i), "<p>x</p>");
  ReadResult r = read_bytes("many.warc", file);
  EXPECT_EQ(r.docs.size(), 150u);
  EXPECT_EQ(r.get("skipped.garbage"), 150u);
  EXPECT_EQ(r.errors.size(), 100u);
}

TEST_F(HostileArchives, ArcV2AndUrlsWithSpaces) {
  std::string http = http_response(200, "", body_of(5));
  std::string filedesc_body = "2 0 test\nURL IP-address Archive-date Content-type Result-code Checksum Location "
                              "Offset Filename Archive-length\n";
  std::string arc = "filedesc://t.arc 0.0.0.0 20240101000000 text/plain 200 - - 0 t.arc " +
                    std::to_string(filedesc_body.size()) + "\n" + filedesc_body + "\n";
  arc += "http://example.org/a b.html 192.0.2.1 20240101000000 text/html 200 ABC - 0 t.arc " +
         std::to_string(http.size()) + "\n" + http + "\n";
  arc += "dns:example.org 192.0.2.1 20240101000000 text/dns 200 - - 0 t.arc 5\nabcde\n";
  ReadResult r = read_file(write_file(dir_, "v2.arc.gz", gzip_member(arc)), InputKind::Arc);
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].url, "http://example.org/a b.html");
  EXPECT_EQ(r.docs[0].body, body_of(5));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"arc.filedesc", 1}, {"arc.non_http", 1}}));
}

TEST_F(HostileArchives, ArcWrongLengthIsCaught) {
  std::string http = http_response(200, "", body_of(6));
  std::string arc = "filedesc://t.arc 0.0.0.0 20240101000000 text/plain 2\n1 \n";
  arc += "http://example.org/short 192.0.2.1 20240101000000 text/html " + std::to_string(http.size() - 30) + "\n" +
         http + "\n";
  arc += "http://example.org/ok 192.0.2.1 20240101000000 text/html " + std::to_string(http.size()) + "\n" + http + "\n";
  ReadResult r = read_file(write_file(dir_, "len.arc", arc), InputKind::Arc);
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].url, "http://example.org/ok");
  EXPECT_EQ(r.get("skipped.arc.bad_length"), 1u);
}

// One corrupted digit in Content-Length must cost that record only, not the rest of
// the file, in plain files (the declared end is no record boundary) and in per-record gzip (the
// member ends long before the declared length).
TEST_F(HostileArchives, CorruptedLongLengthCostsOneRecord) {
  ReadOptions o;
  o.max_record_bytes = 1u << 20;
  std::vector<std::string> records;
  std::vector<std::string> want;
  for (int i = 0; i < 50; ++i) {
    WarcRecordSpec s;
    s.uri = uri_of(i);
    s.block = http_response(200, "", body_of(i));
    if (i == 20) {
      s.length = std::to_string(100000000 + s.block.size());  // one digit corrupted: 100 MB more
    } else {
      want.push_back(uri_of(i));
    }
    records.push_back(warc_record(s));
  }
  std::string plain;
  std::string members;
  for (const auto& rec : records) {
    plain += rec;
    members += gzip_member(rec);
  }
  for (const auto& [name, bytes] : {std::pair{"long.warc", plain}, std::pair{"long.warc.gz", members}}) {
    SCOPED_TRACE(name);
    ReadResult r = read_bytes(name, bytes, o);
    EXPECT_EQ(urls(r), want);
    EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"warc.bad_length", 1}}));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].reason, "warc.bad_length");
  }
  // A true length over the limit is still skipped as too large, in per-record gzip as in plain.
  std::string huge = warc_response("http://example.org/huge", std::string(o.max_record_bytes + 10, 'h'));
  ReadResult r = read_bytes("huge.warc.gz", members.substr(0, 5000) + gzip_member(huge) + gzip_member(records[49]), o);
  EXPECT_EQ(r.skips()["record_too_large"], 1u);
  EXPECT_EQ(urls(r).back(), uri_of(49));
}

TEST_F(HostileArchives, ArcCorruptedLongLengthCostsOneRecord) {
  ReadOptions o;
  o.max_record_bytes = 1u << 20;
  std::string plain = "filedesc://t.arc 0.0.0.0 20240101000000 text/plain 2\n1 \n";
  std::string members = gzip_member(plain);
  std::vector<std::string> want;
  for (int i = 0; i < 20; ++i) {
    std::string http = http_response(200, "", body_of(i));
    std::size_t len = i == 7 ? 100000000 + http.size() : http.size();
    std::string rec = uri_of(i) + " 192.0.2.1 20240101000000 text/html " + std::to_string(len) + "\n" + http + "\n";
    if (i != 7) want.push_back(uri_of(i));
    plain += rec;
    members += gzip_member(rec);
  }
  for (const auto& [name, bytes] : {std::pair{"long.arc", plain}, std::pair{"long.arc.gz", members}}) {
    SCOPED_TRACE(name);
    ReadResult r = read_file(write_file(dir_, name, bytes), InputKind::Arc, o);
    EXPECT_EQ(urls(r), want);
    EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"arc.bad_length", 1}, {"arc.filedesc", 1}}));
  }
}

// Older crawlers wrote no '\n' after an ARC record's content. With exact lengths
// and a header right after, every record is read.
TEST_F(HostileArchives, ArcWithoutSeparatorsIsRead) {
  std::string plain = "filedesc://t.arc 0.0.0.0 20240101000000 text/plain 4\n1 0 ";
  std::string members = gzip_member(plain);
  std::vector<std::string> want;
  for (int i = 0; i < 9; ++i) {
    std::string http = http_response(200, "", body_of(i));
    std::string rec = uri_of(i) + " 192.0.2.1 20240101000000 text/html " + std::to_string(http.size()) + "\n" + http;
    want.push_back(uri_of(i));
    plain += rec;
    members += gzip_member(rec);
  }
  for (const auto& [name, bytes] : {std::pair{"nosep.arc", plain}, std::pair{"nosep.arc.gz", members},
                                    std::pair{"nosep1.arc.gz", gzip_member(plain)}}) {
    SCOPED_TRACE(name);
    ReadResult r = read_file(write_file(dir_, name, bytes), InputKind::Arc);
    EXPECT_EQ(urls(r), want);
    ASSERT_EQ(r.docs.size(), 9u);
    EXPECT_EQ(r.docs[8].body, body_of(8));
    EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"arc.filedesc", 1}}));
  }
}

// A record whose gzip member fails its CRC is not used, in ARC as in WARC.
TEST_F(HostileArchives, ArcCrcErrorDropsOnlyThatRecord) {
  std::vector<std::string> m;
  for (int i = 0; i < 3; ++i) {
    std::string http = http_response(200, "", body_of(i));
    m.push_back(gzip_member(uri_of(i) + " 192.0.2.1 20240101000000 text/html " + std::to_string(http.size()) + "\n" +
                            http + "\n"));
  }
  m[1][m[1].size() - 6] ^= 0x55;  // inside the CRC32 of the trailer
  ReadResult r = read_file(write_file(dir_, "crc.arc.gz", m[0] + m[1] + m[2]), InputKind::Arc);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(0), uri_of(2)}));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"gzip.crc", 1}}));
}

// A member holding several records is checked once, at its end: its records are held until then,
// and all of them are lost if it fails; records in the members around it are kept.
TEST_F(HostileArchives, RecordsOfAFailedMultiRecordMemberAreNotUsed) {
  std::string two = warc_response(uri_of(1), body_of(1)) + warc_response(uri_of(2), body_of(2));
  std::string bad = gzip_member(two);
  bad[bad.size() - 6] ^= 0x55;
  std::string good0 = gzip_member(warc_response(uri_of(0), body_of(0)));
  std::string good3 = gzip_member(warc_response(uri_of(3), body_of(3)));
  ReadResult r = read_bytes("multi.warc.gz", good0 + bad + good3);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(0), uri_of(3)}));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"gzip.crc", 2}}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].offset, good0.size());
  // The whole file as one member: nothing in it can be trusted.
  ReadResult whole = read_bytes("whole-bad.warc.gz", [&] {
    std::string g = gzip_member(two + warc_response(uri_of(3), body_of(3)));
    g[g.size() - 6] ^= 0x55;
    return g;
  }());
  EXPECT_TRUE(whole.docs.empty());
  EXPECT_EQ(whole.skips(), (std::map<std::string, std::uint64_t>{{"gzip.crc", 3}}));
  // Intact, the same member gives both records.
  EXPECT_EQ(urls(read_bytes("multi-ok.warc.gz", gzip_member(two))), (std::vector<std::string>{uri_of(1), uri_of(2)}));
}

// A one-member file that fails its CRC: records whose own WARC-Block-Digest matches are kept (a
// digest in hex or base32), the one whose bytes changed is lost, and so is one without a digest.
TEST_F(HostileArchives, BlockDigestsKeepIntactRecordsOfAFailedMember) {
  std::string plain;
  for (int i = 0; i < 4; ++i) {
    WarcRecordSpec s;
    s.uri = uri_of(i);
    s.block = http_response(200, "", body_of(i));
    s.block_digest = i != 3;
    plain += warc_record(s);
  }
  std::string member = gzip_stored(plain);
  const std::size_t at = member.find("page 1 ");  // stored blocks: the page's own bytes
  ASSERT_NE(at, std::string::npos);
  member[at] = 'P';
  ReadResult r = read_bytes("digests.warc.gz", member);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(0), uri_of(2)}));
  EXPECT_EQ(r.docs[1].body, body_of(2));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"gzip.crc", 2}}));
  EXPECT_EQ(r.get("gzip.kept_by_digest"), 2u);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].reason, "gzip.crc");
  // Per-record members: a member whose CRC fails while its record's digest matches keeps the
  // record (here the CRC itself was damaged); the failure is still counted and listed.
  WarcRecordSpec s;
  s.uri = uri_of(9);
  s.block = http_response(200, "", body_of(9));
  s.block_digest = true;
  std::string bad = gzip_member(warc_record(s));
  bad[bad.size() - 6] ^= 0x55;
  ReadResult k = read_bytes("kept.warc.gz", gzip_member(warc_response(uri_of(8), body_of(8))) + bad);
  EXPECT_EQ(urls(k), (std::vector<std::string>{uri_of(8), uri_of(9)}));
  EXPECT_EQ(k.get("gzip.kept_by_digest"), 1u);
  EXPECT_EQ(k.get("skipped.gzip.crc"), 1u);
}

// Holding is bounded: past max_record_bytes of held bodies, the oldest are used unverified and
// counted, so a huge one-member file cannot exhaust memory.
TEST_F(HostileArchives, HeldRecordsAreBounded) {
  ReadOptions o;
  o.max_record_bytes = 5000;
  o.test_stream_bytes = 64;  // so records are parsed long before their member's end is decoded
  std::string all;
  std::vector<std::string> want;
  std::mt19937 rng(7);  // bodies that do not compress
  for (int i = 0; i < 10; ++i) {
    std::string text(2000, ' ');
    for (char& c : text) c = static_cast<char>('a' + rng() % 26);
    all += warc_response(uri_of(i), "<p>" + text + "</p>");
    want.push_back(uri_of(i));
  }
  ReadResult r = read_bytes("bounded.warc.gz", gzip_member(all), o);
  EXPECT_EQ(urls(r), want);
  EXPECT_TRUE(r.skips().empty());
  // Two held bodies fit in 5000 bytes and a third does not: the early records are used before
  // the member's end (8 KiB or so of them), the last few after it.
  EXPECT_GE(r.get("gzip.unverified"), 5u);
  EXPECT_LE(r.get("gzip.unverified"), 8u);
}

TEST_F(HostileArchives, EmptyAndRandomFilesNeverCrash) {
  ReadResult empty = read_bytes("empty.warc", "");
  EXPECT_EQ(empty.get("records"), 0u);
  EXPECT_EQ(empty.get("input.files"), 1u);
  std::mt19937 rng(12345);
  std::string base;
  for (int i = 0; i < 5; ++i) base += warc_response(uri_of(i), body_of(i));
  std::string gz;
  for (int i = 0; i < 5; ++i) gz += gzip_member(warc_response(uri_of(i), body_of(i)));
  for (int round = 0; round < 300; ++round) {
    std::string data = round % 2 == 0 ? base : gz;
    int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      std::size_t at = rng() % data.size();
      switch (rng() % 3) {
        case 0: data[at] = static_cast<char>(rng()); break;
        case 1: data.erase(at, rng() % 64); break;
        default: data.insert(at, std::string(rng() % 64, static_cast<char>(rng()))); break;
      }
      if (data.empty()) data = "x";
    }
    for (InputKind kind : {InputKind::Warc, InputKind::Arc}) {
      ReadResult r = read_file(write_file(dir_, "fuzz.bin", data), kind);
      EXPECT_LE(r.docs.size(), 5u);
      EXPECT_EQ(r.get("input.files"), 1u);
      std::uint64_t skipped = 0;
      for (const auto& [k, v] : r.skips()) skipped += v;
      // Every record seen is either emitted or skipped under some reason.
      EXPECT_LE(r.get("records"), r.get("documents") + skipped);
    }
  }
}


// A Content-Length whose end lies past the end of the file (a digit prefixed, or a
// few bytes more on a record near the end) must cost that record only. The reader cannot know
// where a gzip stream ends before it gets there, so the rule is the same for raw files, per-record
// members and one member: when a record header follows in the bytes there are, the length was
// wrong (bad_length) and reading goes on from that header.
namespace round3 {

constexpr int kRecords = 300;

struct Layouts {
  std::string raw, members, one_member;
};
Layouts layouts(const std::vector<std::string>& records) {
  Layouts l;
  for (const auto& rec : records) {
    l.raw += rec;
    l.members += gzip_member(rec);
  }
  l.one_member = gzip_member(l.raw);
  return l;
}

using Skips = std::map<std::string, std::uint64_t>;

// Reads `records` as a raw file, one gzip member per record and one member for all (names
// stem + ext, stem + ext + ".gz", stem + "1" + ext + ".gz"): each must give the URLs `want` and
// the skips `skips`. Returns the three results for further checks.
std::vector<ReadResult> read_every_layout(const std::string& dir, const std::string& stem, const std::string& ext,
                                          InputKind kind, const std::vector<std::string>& records,
                                          const std::vector<std::string>& want, const Skips& skips,
                                          const ReadOptions& o = {}) {
  const Layouts l = layouts(records);
  std::vector<ReadResult> out;
  for (const auto& [name, bytes] : {std::pair{stem + ext, l.raw}, std::pair{stem + ext + ".gz", l.members},
                                    std::pair{stem + "1" + ext + ".gz", l.one_member}}) {
    SCOPED_TRACE(name);
    out.push_back(read_file(write_file(dir, name, bytes), kind, o));
    std::vector<std::string> got;
    for (const auto& d : out.back().docs) got.push_back(d.url);
    EXPECT_EQ(got, want);
    EXPECT_EQ(out.back().skips(), skips);
  }
  return out;
}

std::string arc_record(int i, std::size_t length, const std::string& http, bool separator = true) {
  return uri_of(i) + " 192.0.2.1 20240101000000 text/html " + std::to_string(length) + "\n" + http +
         (separator ? "\n" : "");
}
const std::string kArcFiledesc = "filedesc://t.arc 0.0.0.0 20240101000000 text/plain 2\n1 \n";

}  // namespace round3

TEST_F(HostileArchives, LengthPastEndOfFileCostsOneRecord) {
  using namespace round3;
  struct Case {
    int bad;
    const char* how;  // "9": 9,000,000 more (a 9 prefixed to a 7-digit length); "+10": ten bytes more
  };
  for (const Case c : {Case{0, "9"}, Case{55, "9"}, Case{290, "9"}, Case{290, "+10"}, Case{298, "+10"}}) {
    SCOPED_TRACE(std::to_string(c.bad) + c.how);
    std::vector<std::string> records;
    std::vector<std::string> want;
    std::uint64_t bad_offset[2] = {0, 0};  // raw, per-record members
    std::uint64_t offsets[2] = {0, 0};
    for (int i = 0; i < kRecords; ++i) {
      WarcRecordSpec s;
      s.uri = uri_of(i);
      s.block = http_response(200, "", body_of(i % 40));
      if (i == c.bad) {
        s.length = std::to_string(s.block.size() + (std::string(c.how) == "9" ? 9000000 : 10));
        bad_offset[0] = offsets[0];
        bad_offset[1] = offsets[1];
      } else {
        want.push_back(uri_of(i));
      }
      records.push_back(warc_record(s));
      offsets[0] += records.back().size();
      offsets[1] += gzip_member(records.back()).size();
    }
    ASSERT_LT(offsets[0], 9000000u);  // so the declared ends lie past the end of every layout
    const auto results = read_every_layout(dir_, "past", ".warc", InputKind::Warc, records, want, {{"warc.bad_length", 1}});
    for (std::size_t k = 0; k < results.size(); ++k) {
      ASSERT_EQ(results[k].errors.size(), 1u);
      EXPECT_EQ(results[k].errors[0].reason, "warc.bad_length");
      EXPECT_EQ(results[k].errors[0].offset, k < 2 ? bad_offset[k] : 0u);
    }
  }
  // A last record that is really cut stays truncated, in every layout.
  std::vector<std::string> records;
  for (int i = 0; i < 3; ++i) records.push_back(warc_response(uri_of(i), body_of(i)));
  records.back().resize(records.back().size() - 40);
  read_every_layout(dir_, "cut", ".warc", InputKind::Warc, records, {uri_of(0), uri_of(1)}, {{"warc.truncated", 1}});
}

TEST_F(HostileArchives, ArcLengthPastEndOfFileCostsOneRecord) {
  using namespace round3;
  for (const int bad : {0, 55, 290}) {
    SCOPED_TRACE(bad);
    std::vector<std::string> records{kArcFiledesc};
    std::vector<std::string> want;
    for (int i = 0; i < kRecords; ++i) {
      const std::string http = http_response(200, "", body_of(i % 40));
      const std::size_t len = http.size() + (i == bad ? 9000000 : 0);
      if (i != bad) want.push_back(uri_of(i));
      records.push_back(arc_record(i, len, http));
    }
    read_every_layout(dir_, "past", ".arc", InputKind::Arc, records, want, {{"arc.bad_length", 1}, {"arc.filedesc", 1}});
  }
}

// The same, over the record limit: a length that is too large to buffer is skipped without
// buffering, but a wrong one must still cost one record. A one-member .warc.gz holds no member
// end to stop the skip, so the reader decodes on to the declared end, finds the stream ends first
// (or no record boundary there), and goes back to resynchronise after the header.
TEST_F(HostileArchives, OverLimitLengthInOneMemberCostsOneRecord) {
  using namespace round3;
  ReadOptions o;
  o.max_record_bytes = 1u << 20;
  for (const std::uint64_t extra : {std::uint64_t{100000000}, std::uint64_t{1u << 20}}) {
    SCOPED_TRACE(extra);
    std::vector<std::string> records;
    std::vector<std::string> want;
    for (int i = 0; i < 200; ++i) {
      WarcRecordSpec s;
      s.uri = uri_of(i);
      s.block = http_response(200, "", body_of(i % 40));
      if (i == 20 || i == 150) {
        // 20: its declared end lies past the end of the file; 150 (1 MiB more): inside it for the
        // smaller extra, since the records after it hold more than a MiB, but not at a boundary.
        s.length = std::to_string(s.block.size() + (i == 20 ? 100000000 : extra));
      } else {
        want.push_back(uri_of(i));
      }
      records.push_back(warc_record(s));
    }
    // Records large enough that 1 MiB past record 150 is still inside the file.
    for (int i = 200; i < 2400; ++i) {
      records.push_back(warc_response(uri_of(i), body_of(i % 40) + std::string(400, 'y')));
      want.push_back(uri_of(i));
    }
    read_every_layout(dir_, "over", ".warc", InputKind::Warc, records, want, {{"warc.bad_length", 2}}, o);
  }
  // A true length over the limit in one member is still skipped as too large.
  std::string huge = warc_response("http://example.org/huge", std::string(o.max_record_bytes + 10, 'h'));
  ReadResult r = read_bytes("huge1.warc.gz",
                            gzip_member(warc_response(uri_of(1), body_of(1)) + huge + warc_response(uri_of(2), body_of(2))), o);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2)}));
  EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"record_too_large", 1}}));
}

// Going back is bounded (ByteStream::rewind): in a one-member file of wrong over-limit lengths,
// each declaring 60 kB more (half the file), the first ones cost one record each; once the bytes
// decoded ahead and thrown away would exceed twice the furthest position reached, a wrong length
// costs the bytes it declared (still counted once), never more, and reading goes on after them.
// The same for any buffer size (read_file checks).
TEST_F(HostileArchives, GoingBackIsBounded) {
  using namespace round3;
  ReadOptions o;
  o.max_record_bytes = 4096;
  constexpr std::uint64_t kExtra = 60000;  // over the limit, and the declared end inside the file
  std::vector<std::string> records;
  std::vector<std::uint64_t> starts;
  std::vector<int> bad;
  std::uint64_t at = 0;
  for (int i = 0; i < 200; ++i) {
    WarcRecordSpec s;
    s.uri = uri_of(i);
    s.block = http_response(200, "", body_of(i % 40));
    if (i % 20 == 10) {
      s.length = std::to_string(s.block.size() + kExtra);
      bad.push_back(i);
    }
    records.push_back(warc_record(s));
    starts.push_back(at);
    at += records.back().size();
  }
  std::string all;
  for (const auto& rec : records) all += rec;
  ReadResult r = read_bytes("bounded1.warc.gz", gzip_member(all), o);
  // Bad records inside the bytes a bad record declared are lost with them, uncounted.
  EXPECT_GE(r.get("skipped.warc.bad_length"), 2u);
  EXPECT_LE(r.get("skipped.warc.bad_length"), bad.size());
  const std::vector<std::string> read = urls(r);
  const std::set<std::string> got(read.begin(), read.end());
  // A good record is read unless it lies within the bytes some bad record declared.
  std::size_t lost = 0;
  for (int i = 0; i < 200; ++i) {
    if (i % 20 == 10) continue;
    bool in_declared = false;
    for (int b : bad) {
      in_declared |= starts[static_cast<std::size_t>(i)] < starts[static_cast<std::size_t>(b)] + records[static_cast<std::size_t>(b)].size() + kExtra &&
                     i > b;
    }
    if (!in_declared) {
      EXPECT_TRUE(got.count(uri_of(i))) << uri_of(i);
    }
    if (!got.count(uri_of(i))) ++lost;
  }
  // The first wrong lengths cost one record each; the bound was reached, and records were lost.
  for (int i = 0; i < 50; ++i) {
    if (i % 20 != 10) {
      EXPECT_TRUE(got.count(uri_of(i))) << uri_of(i);
    }
  }
  EXPECT_GT(lost, 0u);
  EXPECT_LT(lost, 200u - bad.size());
}

// Random wrong lengths (short, long, past the end, over a small record limit) in every layout:
// every record with a true length is read, and every reading agrees with the tiny-buffer
// readings (read_file).
TEST_F(HostileArchives, RandomWrongLengthsCostTheirOwnRecords) {
  using namespace round3;
  ReadOptions o;
  o.max_record_bytes = 2000;
  std::mt19937 rng(36);
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> records;
    std::vector<bool> wrong;
    for (int i = 0; i < 30; ++i) {
      WarcRecordSpec s;
      s.uri = uri_of(i);
      s.block = http_response(200, "", body_of(static_cast<int>(rng() % 1000)));
      std::uint64_t len = s.block.size();
      wrong.push_back(rng() % 5 == 0);
      if (wrong.back()) {
        const std::uint64_t deltas[] = {1, 9, 500, 3000, 100000, 9000000};
        const std::uint64_t d = deltas[rng() % 6];
        len = rng() % 2 == 0 || d >= len ? len + d : len - d;
        s.length = std::to_string(len);
      }
      records.push_back(warc_record(s));
    }
    const Layouts l = layouts(records);
    for (const auto& [name, bytes] : {std::pair{"rand.warc", l.raw}, std::pair{"rand.warc.gz", l.members},
                                      std::pair{"rand1.warc.gz", l.one_member}}) {
      SCOPED_TRACE(std::to_string(round) + " " + name);
      ReadResult r = read_file(write_file(dir_, name, bytes), InputKind::Warc, o);
      const std::vector<std::string> read = urls(r);
      const std::set<std::string> got(read.begin(), read.end());
      for (std::size_t i = 0; i < records.size(); ++i) {
        if (!wrong[i]) {
          EXPECT_TRUE(got.count(uri_of(static_cast<int>(i)))) << uri_of(static_cast<int>(i));
        }
      }
    }
  }
}

TEST_F(HostileArchives, ArcOverLimitLengthInOneMemberCostsOneRecord) {
  using namespace round3;
  ReadOptions o;
  o.max_record_bytes = 1u << 20;
  std::vector<std::string> records{kArcFiledesc};
  std::vector<std::string> want;
  for (int i = 0; i < 200; ++i) {
    const std::string http = http_response(200, "", body_of(i % 40));
    if (i != 20) want.push_back(uri_of(i));
    records.push_back(arc_record(i, http.size() + (i == 20 ? 100000000 : 0), http));
  }
  read_every_layout(dir_, "over", ".arc", InputKind::Arc, records, want, {{"arc.bad_length", 1}, {"arc.filedesc", 1}}, o);
}

// Lines of "WARC/1.0" without named fields. Each starts a record with a bad header
// (counted), and none of them may swallow the good record after them, however close they are:
// its header block must not be taken as theirs (it was, silently, within 256 KiB of it).
TEST_F(HostileArchives, StackedVersionLinesAreEachABadHeader) {
  const std::string first = warc_response(uri_of(1), body_of(1));
  for (const int lines : {1, 1000, 30000}) {
    SCOPED_TRACE(lines);
    std::string garbage;
    for (int i = 0; i < lines; ++i) garbage += "WARC/1.0\r\n";
    const std::string file = first + garbage + warc_response(uri_of(2), body_of(2));
    for (bool gz : {false, true}) {
      SCOPED_TRACE(gz ? "gzip" : "plain");
      ReadResult r = read_bytes(gz ? "stacked.warc.gz" : "stacked.warc", gz ? gzip_member(file) : file);
      EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2)}));
      ASSERT_EQ(r.docs.size(), 2u);
      EXPECT_EQ(r.docs[1].stream_offset, first.size() + garbage.size());
      EXPECT_EQ(r.skips(), (std::map<std::string, std::uint64_t>{{"warc.bad_header", lines}}));
      EXPECT_EQ(r.get("records"), lines + 2u);
    }
  }
}

// ARC records written without a '\n' after the content, one with a length 7 bytes
// short (its content ends before "</html>") and one 3 bytes long (into the next header's "htt").
// The next header starts inside a line: it must be found there with its true URL, never read as
// "</html>http://..." or "p://...", and the wrong lengths are counted.
TEST_F(HostileArchives, ArcWithoutSeparatorsAndWrongLengths) {
  using namespace round3;
  std::vector<std::string> records{"filedesc://t.arc 0.0.0.0 20240101000000 text/plain 4\n1 0 "};
  std::vector<std::string> want;
  for (int i = 0; i < 12; ++i) {
    const std::string http = http_response(200, "", body_of(i));
    std::size_t len = http.size();
    if (i == 3) len -= 7;
    if (i == 7) len += 3;
    if (i != 3 && i != 7) want.push_back(uri_of(i));
    records.push_back(arc_record(i, len, http, /*separator=*/false));
  }
  for (const ReadResult& r :
       read_every_layout(dir_, "nosep", ".arc", InputKind::Arc, records, want, {{"arc.bad_length", 2}, {"arc.filedesc", 1}})) {
    for (const auto& d : r.docs) EXPECT_EQ(d.body, body_of(std::stoi(d.url.substr(uri_of(0).size() - 1))));
  }
}

}  // namespace
}  // namespace crd::io::test
