// Records and pages beside a bad neighbour: a bad record costs itself only, every byte not used is
// counted, and pages that warcio (the reference Python reader) reads are read. Every reader test
// also reads with 64- and 7-byte buffers (read_file), so no outcome depends on buffer sizes.
#include <gtest/gtest.h>

#include "archive_builder.hpp"
#include "support/test_paths.hpp"

namespace crd::io::test {
namespace {

std::string body_of(int i) {
  return "<html><body><p>page " + std::to_string(i) + " " + std::string(200 + i, 'x') + "</p></body></html>";
}
std::string uri_of(int i) { return "http://example.org/" + std::to_string(i); }

using Counts = std::map<std::string, std::uint64_t>;

std::string arc_record(const std::string& uri, const std::string& http) {
  return uri + " 192.0.2.1 20240101000000 text/html " + std::to_string(http.size()) + "\n" + http + "\n";
}
const std::string kFiledesc = "filedesc://t.arc 0.0.0.0 20240101000000 text/plain 4\n1 0 \n";

// A WARC record with extra named fields after the version line.
std::string with_fields(const WarcRecordSpec& s, const std::string& fields) {
  std::string rec = warc_record(s);
  return rec.insert(rec.find("\r\n") + 2, fields);
}

class BadNeighbours : public ::testing::Test {
 protected:
  std::string dir_ = crd::testing::make_temp_dir("io-neighbours");
  ReadResult read_bytes(const std::string& name, const std::string& bytes, InputKind kind = InputKind::Warc) {
    return read_file(write_file(dir_, name, bytes), kind);
  }
  static std::vector<std::string> urls(const ReadResult& r) {
    std::vector<std::string> out;
    for (const auto& d : r.docs) out.push_back(d.url);
    return out;
  }
  // A response whose HTTP block is `block`.
  static std::string response(const std::string& uri, const std::string& block) {
    WarcRecordSpec s;
    s.uri = uri;
    s.block = block;
    return warc_record(s);
  }
};

// A header line longer than the 64 KiB look (a 300 KB URL) made the good record before it fail its
// boundary check (arc.bad_length at the good record's offset). Now that record alone is lost.
TEST_F(BadNeighbours, ArcOverlongUrlCostsItsOwnRecordOnly) {
  const std::string long_uri = "http://example.org/" + std::string(300000, 'u');
  const std::string r1 = arc_record(uri_of(1), http_response(200, "", body_of(1)));
  const std::string bad = arc_record(long_uri, http_response(200, "", body_of(2)));
  const std::string r3 = arc_record(uri_of(3), http_response(200, "", body_of(3)));
  const std::string fine_uri = "http://example.org/" + std::string(60000, 'f');  // 60 KB: read
  const std::string r4 = arc_record(fine_uri, http_response(200, "", body_of(4)));
  for (const auto& [name, bytes] : {std::pair{"long.arc", kFiledesc + r1 + bad + r3 + r4},
                                    std::pair{"long.arc.gz", gzip_member(kFiledesc) + gzip_member(r1) +
                                                                 gzip_member(bad) + gzip_member(r3) + gzip_member(r4)},
                                    std::pair{"long1.arc.gz", gzip_member(kFiledesc + r1 + bad + r3 + r4)}}) {
    SCOPED_TRACE(name);
    ReadResult r = read_bytes(name, bytes, InputKind::Arc);
    EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(3), fine_uri}));
    ASSERT_EQ(r.docs.size(), 3u);
    EXPECT_EQ(r.docs[0].body, body_of(1));
    EXPECT_EQ(r.skips(), (Counts{{"arc.filedesc", 1}, {"arc.bad_header", 1}}));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].reason, "arc.bad_header");
    if (std::string(name) == "long.arc") {
      EXPECT_EQ(r.errors[0].offset, kFiledesc.size() + r1.size());
    }
  }
}

// A record whose lines end in CR only made the good record before it fail its boundary check. Its
// header line ends at the lone CR; its HTTP response cannot be read (http.bad_response, warcio
// cannot either), and the records around it are.
TEST_F(BadNeighbours, ArcCrOnlyRecordCostsItselfOnly) {
  std::string cr_http = "HTTP/1.1 200 OK\rContent-Type: text/html\r\r" + body_of(2);
  const std::string r1 = arc_record(uri_of(1), http_response(200, "", body_of(1)));
  const std::string cr =
      uri_of(2) + " 192.0.2.1 20240101000000 text/html " + std::to_string(cr_http.size()) + "\r" + cr_http + "\r";
  const std::string r3 = arc_record(uri_of(3), http_response(200, "", body_of(3)));
  for (const auto& [name, bytes] :
       {std::pair{"cr.arc", kFiledesc + r1 + cr + r3},
        std::pair{"cr.arc.gz", gzip_member(kFiledesc) + gzip_member(r1) + gzip_member(cr) + gzip_member(r3)}}) {
    SCOPED_TRACE(name);
    ReadResult r = read_bytes(name, bytes, InputKind::Arc);
    EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(3)}));
    EXPECT_EQ(r.skips(), (Counts{{"arc.filedesc", 1}, {"http.bad_response", 1}}));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].reason, "http.bad_response");
  }
}

// A WARC record with CR-only line ends was merged, uncounted, into the next record (4 read as 3).
TEST_F(BadNeighbours, WarcCrOnlyRecordIsCountedNotMerged) {
  std::string cr = warc_response(uri_of(3), body_of(3));
  for (std::size_t at = cr.find("\r\n"); at != std::string::npos; at = cr.find("\r\n", at)) cr.erase(at + 1, 1);
  const std::string r1 = warc_response(uri_of(1), body_of(1));
  const std::string r2 = warc_response(uri_of(2), body_of(2));
  const std::string r4 = warc_response(uri_of(4), body_of(4));
  ReadResult r = read_bytes("cr.warc", r1 + r2 + cr + r4);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2), uri_of(4)}));
  EXPECT_EQ(r.docs[2].offset, r1.size() + r2.size() + cr.size());
  EXPECT_EQ(r.docs[2].body, body_of(4));
  EXPECT_EQ(r.skips(), (Counts{{"warc.bad_header", 1}}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].offset, r1.size() + r2.size());
  ReadResult g = read_bytes("cr.warc.gz", gzip_member(r1 + r2 + cr + r4));
  EXPECT_EQ(urls(g), urls(r));
  EXPECT_EQ(g.skips(), (Counts{{"warc.bad_header", 1}}));
}

// 2 KB of junk that starts with the version mark and holds no newline was absorbed the same way.
TEST_F(BadNeighbours, WarcJunkStartingWithTheMarkIsCounted) {
  const std::string r1 = warc_response(uri_of(1), body_of(1));
  const std::string junk = "WARC/1.0" + std::string(2048, 'j');
  const std::string r2 = warc_response(uri_of(2), body_of(2));
  ReadResult r = read_bytes("junk.warc", r1 + junk + r2);
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2)}));
  EXPECT_EQ(r.docs[1].offset, r1.size() + junk.size());
  EXPECT_EQ(r.skips(), (Counts{{"warc.bad_header", 1}}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].reason, "warc.bad_header");
  EXPECT_EQ(r.errors[0].offset, r1.size());
}

// "Transfer-Encoding: gzip, chunked" was de-chunked but not decompressed: the gzip bytes were
// hashed as the page. Every transfer coding is undone, last applied first, then the content codings.
TEST_F(BadNeighbours, EveryTransferCodingIsUndone) {
  const std::string html = body_of(5);
  ReadResult r = read_bytes(
      "te.warc",
      response(uri_of(1), http_response(200, "Transfer-Encoding: gzip, chunked\r\n", chunked({gzip_member(html)}))) +
          response(uri_of(2), http_response(200, "Transfer-Encoding: deflate, chunked\r\nContent-Encoding: gzip\r\n",
                                            chunked({zlib_compress(gzip_member(html), false)}))) +
          response(uri_of(3), http_response(200, "Transfer-Encoding: br, chunked\r\n", chunked({"brotli"}))));
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2)}));
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].body, html);
  EXPECT_EQ(r.docs[1].body, html);
  EXPECT_EQ(r.skips(), (Counts{{"http.unsupported_encoding", 1}}));
}

// Pages warcio reads that crd dropped: a body stored decoded under "Content-Encoding: gzip"
// (no gzip magic), and codings that name no compression ("none", "UTF-8"). Read as they are,
// and counted; a body with the gzip magic that does not inflate, and brotli, stay refused.
TEST_F(BadNeighbours, BodiesWarcioReadsAreReadAndCounted) {
  const std::string html = body_of(6);
  ReadResult r = read_bytes(
      "ce.warc",
      response(uri_of(1), http_response(200, "Content-Encoding: gzip\r\n", html)) +
          response(uri_of(2), http_response(200, "Content-Encoding: none\r\n", html)) +
          response(uri_of(3), http_response(200, "Content-Encoding: UTF-8\r\n", html)) +
          response(uri_of(4), http_response(200, "Content-Encoding: gzip\r\n", "\x1f\x8b not deflate at all")) +
          response(uri_of(5), http_response(200, "Content-Encoding: br\r\n", html)));
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2), uri_of(3)}));
  for (const auto& d : r.docs) EXPECT_EQ(d.body, html);
  EXPECT_EQ(r.get("http.encoding_already_decoded"), 1u);
  EXPECT_EQ(r.get("http.unknown_encoding_as_identity"), 2u);
  EXPECT_EQ(r.skips(), (Counts{{"http.bad_encoding", 1}, {"http.unsupported_encoding", 1}}));
}

// A chunked body the recorder cut (WARC-Truncated) was dropped as bad_chunked: what was received
// is kept and counted. Without WARC-Truncated the same bytes stay bad_chunked.
TEST_F(BadNeighbours, TruncatedChunkedBodyKeepsWhatWasReceived) {
  std::string body = chunked({"<html><p>first part</p>", "<p>second part that was cut</p></html>"});
  body.resize(body.find("second part") + 6);
  WarcRecordSpec s;
  s.uri = uri_of(1);
  s.block = http_response(200, "Transfer-Encoding: chunked\r\n", body);
  WarcRecordSpec plain = s;
  plain.uri = uri_of(2);
  ReadResult r = read_bytes("cut.warc", with_fields(s, "WARC-Truncated: length\r\n") + warc_record(plain));
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1)}));
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].body, "<html><p>first part</p><p>second");
  EXPECT_EQ(r.get("http.truncated_body_kept"), 1u);
  EXPECT_EQ(r.skips(), (Counts{{"http.bad_chunked", 1}}));
}

// "100 Continue" then the 200 in one record was skipped as non_2xx; a 1xx alone still is.
TEST_F(BadNeighbours, InterimResponseBeforeTheFinalOne) {
  const std::string html = body_of(7);
  ReadResult r =
      read_bytes("continue.warc",
                 response(uri_of(1), "HTTP/1.1 100 Continue\r\n\r\n" + http_response(200, "", html)) +
                     response(uri_of(2), "HTTP/1.1 100 Continue\r\nX-A: b\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n" +
                                             http_response(200, "Content-Encoding: gzip\r\n", gzip_member(html))) +
                     response(uri_of(3), "HTTP/1.1 100 Continue\r\n\r\n") +
                     response(uri_of(4), "HTTP/1.1 100 Continue\r\n\r\n" + http_response(404, "", html)));
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(2)}));
  for (const auto& d : r.docs) EXPECT_EQ(d.body, html);
  EXPECT_EQ(r.get("http.interim_response"), 3u);
  EXPECT_EQ(r.skips(), (Counts{{"http.non_2xx", 2}}));
}

// A status code is three digits: "HTTP/1.1 2000 OK" was read as 200.
TEST_F(BadNeighbours, StatusCodeIsThreeDigits) {
  ReadResult r = read_bytes("status.warc", response(uri_of(1), "HTTP/1.1 2000 OK\r\n\r\n" + body_of(1)) +
                                               response(uri_of(2), "HTTP/1.1 200x OK\r\n\r\n" + body_of(2)) +
                                               response(uri_of(3), "HTTP/1.1 200\tOK\r\n\r\n" + body_of(3)));
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(3)}));
  EXPECT_EQ(r.skips(), (Counts{{"http.bad_response", 2}}));
}

// A Content-Length of 22 digits with leading zeros (warcio reads it) was warc.bad_length. Still at
// most 18 significant digits.
TEST_F(BadNeighbours, LengthWithLeadingZeros) {
  WarcRecordSpec s;
  s.uri = uri_of(1);
  s.block = http_response(200, "", body_of(1));
  std::string len = std::to_string(s.block.size());
  s.length = std::string(22 - len.size(), '0') + len;
  WarcRecordSpec big = s;
  big.uri = uri_of(2);
  big.length = "0001000000000000000000";  // 10^18: past any file
  ReadResult r = read_bytes("zeros.warc", warc_record(s) + warc_record(big) + warc_response(uri_of(3), body_of(3)));
  EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(3)}));
  EXPECT_EQ(r.docs[0].body, body_of(1));
  EXPECT_EQ(r.skips(), (Counts{{"warc.bad_length", 1}}));
  const std::string arc = kFiledesc + uri_of(4) + " 192.0.2.1 20240101000000 text/html 0000000000" +
                          std::to_string(http_response(200, "", body_of(4)).size()) + "\n" +
                          http_response(200, "", body_of(4)) + "\n";
  ReadResult a = read_bytes("zeros.arc", arc, InputKind::Arc);
  EXPECT_EQ(urls(a), (std::vector<std::string>{uri_of(4)}));
}

// Segmented records: the first segment was hashed as a whole page. Segments in one input are
// joined (in any layout, with other records between them); a chain not whole in the input is
// counted (warc.segmented), each of its records, and no part of it is used.
TEST_F(BadNeighbours, SegmentedRecordsAreJoinedOrSkipped) {
  const std::string block = http_response(200, "", body_of(9) + std::string(3000, 'z') + "</p>");
  const std::string a = block.substr(0, 1000), b = block.substr(1000, 1500), c = block.substr(2500);
  auto segment = [](const std::string& type, const std::string& part, const std::string& fields) {
    WarcRecordSpec s;
    s.type = type;
    s.uri = uri_of(9);
    s.block = part;
    return with_fields(s, fields);
  };
  std::string first = segment("response", a, "WARC-Segment-Number: 1\r\n");
  first.replace(first.find("00000000-0000-0000-0000-000000000000"), 36, "seg-1");  // its WARC-Record-ID
  const std::string second =
      segment("continuation", b, "WARC-Segment-Origin-ID: <urn:uuid:seg-1>\r\nWARC-Segment-Number: 2\r\n");
  const std::string last = segment("continuation", c,
                                   "WARC-Segment-Origin-ID: <urn:uuid:seg-1>\r\nWARC-Segment-Number: 3\r\n"
                                   "WARC-Segment-Total-Length: " +
                                       std::to_string(block.size()) + "\r\n");
  const std::string r1 = warc_response(uri_of(1), body_of(1));
  const std::string whole = first + r1 + second + last;
  for (const auto& [name, bytes] :
       {std::pair{"seg.warc", whole}, std::pair{"seg.warc.gz", gzip_member(whole)},
        std::pair{"segs.warc.gz", gzip_member(first) + gzip_member(r1) + gzip_member(second) + gzip_member(last)}}) {
    SCOPED_TRACE(name);
    ReadResult r = read_bytes(name, bytes);
    EXPECT_EQ(urls(r), (std::vector<std::string>{uri_of(1), uri_of(9)}));
    ASSERT_EQ(r.docs.size(), 2u);
    EXPECT_EQ(r.docs[1].body, body_of(9) + std::string(3000, 'z') + "</p>");
    EXPECT_EQ(r.docs[1].offset, 0u);
    EXPECT_EQ(r.get("warc.segments_joined"), 1u);
    EXPECT_TRUE(r.skips().empty());
  }
  // Only the first two segments in this input; only the last in another; out of order.
  ReadResult part = read_bytes("part.warc", first + r1 + second);
  EXPECT_EQ(urls(part), (std::vector<std::string>{uri_of(1)}));
  EXPECT_EQ(part.skips(), (Counts{{"warc.segmented", 2}}));
  ReadResult tail = read_bytes("tail.warc", last + r1);
  EXPECT_EQ(urls(tail), (std::vector<std::string>{uri_of(1)}));
  EXPECT_EQ(tail.skips(), (Counts{{"warc.segmented", 1}}));
  ReadResult jumbled = read_bytes("jumbled.warc", first + last + second + r1);
  EXPECT_EQ(urls(jumbled), (std::vector<std::string>{uri_of(1)}));
  EXPECT_EQ(jumbled.skips(), (Counts{{"warc.segmented", 3}}));
  EXPECT_EQ(jumbled.errors.size(), 1u);
}

}  // namespace
}  // namespace crd::io::test
