// Reads every real WARC/ARC sample in shared/data/warc-samples and checks exact counts and details.
//
// How the expected numbers were obtained, independently of this reader:
//  - WARC files: `zcat -f FILE | grep -a -c '^WARC-Type: X'` per type, and a short Python script
//    that splits the decompressed text at lines "WARC/1.x" and classifies each response by the
//    first "HTTP/... NNN" status line of its block (2xx / other / malformed).
//  - Content-Length checks: the same script compared each declared Content-Length with the distance
//    to the next "WARC/1.0" line; only example.warc's second request record disagrees (320 declared,
//    323 actual: it ends in "...m\r\n\r\n\r\n", so the declared block is followed by 'm').
//    example-bad.warc.gz.bad decompresses (one gzip member for the whole file) to a copy of
//    example.warc with that length corrected, so it reads cleanly.
//  - example-url-agnostic-*.warc.gz: their warcinfo Content-Length already covers the final CRLFs and
//    "WARC/1.0" follows directly (no separator) — accepted.
//  - missing-status-text.warc: every line ends "\r\r\n" and the status line is "HTTP/1.0 302 " (no
//    reason text): a redirect, skipped as non-2xx.
//  - iana.warc.gz: 48 responses, of which 4 are non-2xx (grep of status lines in response blocks);
//    25 responses say "Transfer-Encoding: chunked" but their bodies were stored de-chunked (the body
//    starts with "<!doctype", "<?xml", "\x89PNG", ... — checked with Python), so they are kept whole.
//  - example-extra.warc: one response's status line is "HTTPX/1.1 200 OK" (grep -a HTTPX).
//  - bad.arc (read with cat -A): a filedesc and a record with length "-1", a record with length 1
//    whose content "\n" is no HTTP response, and a record with length "abc".
//  - example.arc / .arc.gz: filedesc + one http://example.com/ 200 response (text/html, 1270 bytes).
#include <gtest/gtest.h>

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "archive_builder.hpp"
#include "crd/io/inputs.hpp"
#include "support/test_paths.hpp"

namespace crd::io::test {
namespace {

namespace fs = std::filesystem;

struct Expected {
  std::uint64_t records;
  std::uint64_t documents;
  std::map<std::string, std::uint64_t> skips;
  std::uint64_t errors;  // entries in the ReadError list
};

const std::map<std::string, Expected>& expectations() {
  static const std::map<std::string, Expected> e = {
      {"bad.arc", {4, 0, {{"arc.bad_length", 3}, {"http.bad_response", 1}}, 4}},
      {"dupes.warc.gz",
       {25, 2, {{"warc.warcinfo", 1}, {"warc.request", 12}, {"warc.revisit", 9}, {"http.non_2xx", 1}}, 0}},
      {"example-bad.warc.gz.bad",
       {6, 1, {{"warc.warcinfo", 1}, {"warc.request", 2}, {"warc.revisit", 1}, {"http.non_2xx", 1}}, 0}},
      {"example-extra.warc",
       {6, 1, {{"warc.request", 2}, {"warc.revisit", 2}, {"http.bad_response", 1}}, 1}},
      {"example-url-agnostic-orig.warc.gz", {2, 1, {{"warc.warcinfo", 1}}, 0}},
      {"example-url-agnostic-revisit.warc.gz", {2, 0, {{"warc.warcinfo", 1}, {"warc.revisit", 1}}, 0}},
      {"example-wget-1-14.warc.gz", {6, 4, {{"warc.warcinfo", 1}, {"warc.request", 1}}, 0}},
      {"example-wpull.warc.gz", {4, 2, {{"warc.warcinfo", 1}, {"warc.request", 1}}, 0}},
      {"example.arc", {2, 1, {{"arc.filedesc", 1}}, 0}},
      {"example.arc.gz", {2, 1, {{"arc.filedesc", 1}}, 0}},
      {"example.warc",
       {6, 1,
        {{"warc.warcinfo", 1}, {"warc.request", 1}, {"warc.bad_length", 1}, {"warc.revisit", 1}, {"http.non_2xx", 1}},
        1}},
      {"example.warc.gz",
       {6, 1, {{"warc.warcinfo", 1}, {"warc.request", 2}, {"warc.revisit", 1}, {"http.non_2xx", 1}}, 0}},
      {"example2.warc.gz", {3, 1, {{"warc.warcinfo", 1}, {"warc.request", 1}}, 0}},
      {"httpbin-resource.warc.gz", {1, 1, {}, 0}},
      {"iana.warc.gz",
       {343, 44, {{"warc.warcinfo", 1}, {"warc.request", 171}, {"warc.revisit", 123}, {"http.non_2xx", 4}}, 0}},
      {"missing-status-text.warc", {1, 0, {{"http.non_2xx", 1}}, 0}},
      {"post-test.warc.gz", {6, 3, {{"warc.request", 3}}, 0}},
  };
  return e;
}

class WarcSamples : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = crd::testing::warc_samples_dir();
    if (!dir) GTEST_SKIP() << "shared/data/warc-samples not found (set CRD_SHARED_DIR)";
    dir_ = *dir;
  }
  ReadResult read(const std::string& name) {
    InputKind kind = name.find(".arc") != std::string::npos && name.find(".warc") == std::string::npos
                         ? InputKind::Arc
                         : InputKind::Warc;
    return read_file(dir_ + "/" + name, kind);
  }
  const Document* find(const ReadResult& r, const std::string& url) {
    for (const auto& d : r.docs) {
      if (d.url == url) return &d;
    }
    return nullptr;
  }
  std::string dir_;
};

TEST_F(WarcSamples, EverySampleFileHasExactCounts) {
  std::size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    std::string name = entry.path().filename().string();
    if (name == "README.md") continue;
    SCOPED_TRACE(name);
    auto it = expectations().find(name);
    ASSERT_NE(it, expectations().end()) << "new sample without expected counts: " << name;
    const Expected& want = it->second;
    ReadResult r = read(name);
    EXPECT_EQ(r.get("input.files"), 1u);
    EXPECT_EQ(r.get("input.bytes"), fs::file_size(entry.path()));
    EXPECT_EQ(r.get("records"), want.records);
    EXPECT_EQ(r.get("documents"), want.documents);
    EXPECT_EQ(r.docs.size(), want.documents);
    EXPECT_EQ(r.skips(), want.skips);
    EXPECT_EQ(r.errors.size(), want.errors);
    for (const auto& d : r.docs) EXPECT_EQ(d.source, dir_ + "/" + name);
    ++checked;
  }
  EXPECT_EQ(checked, expectations().size());
}

TEST_F(WarcSamples, ResponseUrlTypeAndBody) {
  ReadResult r = read("example.warc");
  ASSERT_EQ(r.docs.size(), 1u);
  const Document& d = r.docs[0];
  EXPECT_EQ(d.url, "http://example.com?example=1");
  EXPECT_EQ(d.content_type, "text/html");
  EXPECT_EQ(d.charset, "");
  EXPECT_EQ(d.body.size(), 1270u);  // the HTTP Content-Length of the capture
  EXPECT_EQ(d.body.rfind("<!doctype html>", 0), 0u);
  EXPECT_EQ(d.offset, 460u);  // byte offset of the record's "WARC/1.0" (grep -b)
  EXPECT_TRUE(is_chunkable(d));
}

TEST_F(WarcSamples, ErrorsCarryFileOffsetAndReason) {
  ReadResult r = read("example.warc");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].reason, "warc.bad_length");
  EXPECT_EQ(r.errors[0].offset, 4061u);  // the second request record
  EXPECT_EQ(r.errors[0].file, dir_ + "/example.warc");
}

TEST_F(WarcSamples, GzipContentEncodingIsDecoded) {
  ReadResult r = read("example2.warc.gz");  // "Content-Encoding: gzip", 606 compressed bytes
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].url, "http://example.com/");
  EXPECT_EQ(r.docs[0].body.size(), 1270u);
  EXPECT_NE(r.docs[0].body.find("<h1>Example Domain</h1>"), std::string::npos);
}

TEST_F(WarcSamples, RevisitsAreSkipped) {
  ReadResult r = read("dupes.warc.gz");
  EXPECT_EQ(r.get("skipped.warc.revisit"), 9u);
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].url, "http://example.com");
  EXPECT_EQ(r.docs[0].body.size(), 1270u);
  // A real 200 with "Content-Length: 0" (its payload digest is SHA-1 of nothing): an empty document.
  EXPECT_EQ(r.docs[1].url, "http://www.iana.org/_js/2013.1/iana.js");
  EXPECT_EQ(r.docs[1].body, "");
}

TEST_F(WarcSamples, CharsetAndDechunkedBodies) {
  ReadResult r = read("iana.warc.gz");
  const Document* home = find(r, "http://www.iana.org/");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(home->content_type, "text/html");
  EXPECT_EQ(home->charset, "utf-8");
  EXPECT_EQ(home->body.rfind("<!doctype html>", 0), 0u);
  EXPECT_EQ(r.get("http.chunked_already_decoded"), 25u);
  const Document* png = find(r, "http://www.iana.org/_img/2013.1/iana-logo-homepage.png");
  ASSERT_NE(png, nullptr);
  EXPECT_EQ(png->content_type, "image/png");
  EXPECT_FALSE(is_chunkable(*png));
}

TEST_F(WarcSamples, ResourceRecordsUseWarcContentType) {
  ReadResult r = read("httpbin-resource.warc.gz");
  ASSERT_EQ(r.docs.size(), 1u);
  EXPECT_EQ(r.docs[0].url, "http://httpbin.org/anything/resource.json");
  EXPECT_EQ(r.docs[0].content_type, "application/json");
  ReadResult w = read("example-wget-1-14.warc.gz");
  const Document* log = find(w, "metadata://gnu.org/software/wget/warc/wget.log");
  ASSERT_NE(log, nullptr);
  EXPECT_EQ(log->content_type, "text/plain");
}

TEST_F(WarcSamples, ArcV1PlainAndGzipAgree) {
  ReadResult plain = read("example.arc");
  ReadResult gz = read("example.arc.gz");
  ASSERT_EQ(plain.docs.size(), 1u);
  ASSERT_EQ(gz.docs.size(), 1u);
  EXPECT_EQ(plain.docs[0].url, "http://example.com/");
  EXPECT_EQ(plain.docs[0].content_type, "text/html");
  EXPECT_EQ(plain.docs[0].body, gz.docs[0].body);
  EXPECT_EQ(plain.docs[0].offset, 151u);  // after the 151-byte filedesc record
  EXPECT_EQ(gz.docs[0].stream_offset, 151u);
}

TEST_F(WarcSamples, BadArcReportsEachProblem) {
  ReadResult r = read("bad.arc");
  ASSERT_EQ(r.errors.size(), 4u);
  EXPECT_EQ(r.errors[0].reason, "arc.bad_length");  // filedesc with length -1
  EXPECT_EQ(r.errors[0].offset, 0u);
  EXPECT_EQ(r.errors[2].reason, "http.bad_response");
}

TEST_F(WarcSamples, DirectoryWalkSniffsNothingButNames) {
  InputLog c;
  auto files = expand_inputs({dir_}, {}, c);
  ASSERT_EQ(files.size(), expectations().size() + 1);  // + README.md
  for (std::size_t i = 1; i < files.size(); ++i) EXPECT_LT(files[i - 1].url, files[i].url);
  for (const auto& f : files) {
    if (f.url == "example-bad.warc.gz.bad" || f.url == "README.md") {
      EXPECT_EQ(f.kind, InputKind::PlainFile);
    } else if (f.url.find(".warc") != std::string::npos) {
      EXPECT_EQ(f.kind, InputKind::Warc) << f.url;
    } else {
      EXPECT_EQ(f.kind, InputKind::Arc) << f.url;
    }
  }
  // Given directly, the .bad file is recognised by its content.
  auto direct = expand_inputs({dir_ + "/example-bad.warc.gz.bad"}, {}, c);
  ASSERT_EQ(direct.size(), 1u);
  EXPECT_EQ(direct[0].kind, InputKind::Warc);
}

// The decoded bytes of a file: every gzip member inflated in turn, or the bytes as they are.
std::string decoded_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string raw = ss.str();
  if (raw.size() < 2 || raw[0] != '\x1f' || raw[1] != '\x8b') return raw;
  std::string out;
  std::size_t at = 0;
  while (at < raw.size()) {
    z_stream zs{};
    inflateInit2(&zs, 16 + MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data() + at));
    zs.avail_in = static_cast<uInt>(raw.size() - at);
    int rc = Z_OK;
    char buf[65536];
    while (rc == Z_OK) {
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof buf;
      rc = inflate(&zs, Z_NO_FLUSH);
      out.append(buf, sizeof buf - zs.avail_out);
    }
    at += zs.total_in;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) break;
  }
  return out;
}

// Every document is a response or resource record of the file, in file order, and its payload
// is the record's own bytes: checked against a reading of the decoded file that knows nothing
// of the reader (records start at "WARC/1." lines; the URI is the WARC-Target-URI field).
TEST_F(WarcSamples, UrlsAndPayloadsComeFromTheirOwnRecords) {
  std::size_t docs_checked = 0;
  std::size_t docs_expected = 0;
  for (const auto& [name, want] : expectations()) {
    if (name.find(".warc") == std::string::npos || name == "example-bad.warc.gz.bad") continue;
    SCOPED_TRACE(name);
    docs_expected += want.documents;
    const std::string text = decoded_bytes(dir_ + "/" + name);
    std::vector<std::string> uris;  // of response and resource records, in order
    std::vector<std::size_t> starts;
    for (std::size_t at = text.find("WARC/1."); at != std::string::npos; at = text.find("\nWARC/1.", at + 1)) {
      if (text[at] == '\n') ++at;
      const std::size_t end = text.find("\r\n\r\n", at);
      const std::string header = text.substr(at, end - at);
      if (header.find("WARC-Type: response") == std::string::npos &&
          header.find("WARC-Type: resource") == std::string::npos) {
        continue;
      }
      const std::size_t u = header.find("WARC-Target-URI: ");
      ASSERT_NE(u, std::string::npos);
      std::string uri = header.substr(u + 17, header.find('\r', u) - u - 17);
      if (uri.size() >= 2 && uri.front() == '<') uri = uri.substr(1, uri.size() - 2);
      uris.push_back(uri);
      starts.push_back(at);
    }
    ReadResult r = read(name);
    std::size_t next = 0;
    for (const Document& d : r.docs) {
      while (next < uris.size() && uris[next] != d.url) ++next;
      ASSERT_LT(next, uris.size()) << "document URL '" << d.url << "' is not the URI of a later response record";
      const std::size_t from = starts[next];
      const std::size_t to = next + 1 < starts.size() ? starts[next + 1] : text.size();
      const std::string record = text.substr(from, to - from);
      if (record.find("Content-Encoding: gzip") == std::string::npos) {
        EXPECT_NE(record.find(d.body), std::string::npos) << d.url << ": payload is not the record's bytes";
      }
      EXPECT_EQ(d.stream_offset, from) << d.url;
      ++next;
      ++docs_checked;
    }
  }
  EXPECT_EQ(docs_checked, docs_expected);
}

}  // namespace
}  // namespace crd::io::test
