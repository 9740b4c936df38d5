// Test archive builders: plain string assembly plus zlib for the compressed variants.
#include "archive_builder.hpp"

#include <gtest/gtest.h>

#include <zlib.h>

#include <fstream>

#include "crd/hash/sha1.hpp"
#include <stdexcept>

namespace crd::io::test {

std::string http_response(int status, const std::string& extra_headers, const std::string& body,
                          const std::string& content_type) {
  std::string r = "HTTP/1.1 " + std::to_string(status) + " Whatever\r\n";
  if (!content_type.empty()) r += "Content-Type: " + content_type + "\r\n";
  r += extra_headers;
  r += "\r\n";
  r += body;
  return r;
}

namespace {
// RFC 4648 base32 of a digest (20 bytes: exactly 32 characters, no padding).
std::string base32(const Digest& d) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  std::uint32_t bits = 0;
  int nbits = 0;
  for (std::uint8_t b : d.bytes) {
    bits = (bits << 8) | b;
    nbits += 8;
    while (nbits >= 5) {
      nbits -= 5;
      out += alphabet[(bits >> nbits) & 31];
    }
  }
  return out;
}
}  // namespace

std::string warc_record(const WarcRecordSpec& spec) {
  std::string r = "WARC/1.1\r\n";
  if (!spec.omit_type) r += "WARC-Type: " + spec.type + "\r\n";
  r += "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n";
  r += "WARC-Date: 2024-01-01T00:00:00Z\r\n";
  if (!spec.uri.empty()) r += "WARC-Target-URI: " + spec.uri + "\r\n";
  if (!spec.content_type.empty()) r += "Content-Type: " + spec.content_type + "\r\n";
  if (!spec.omit_length) r += "Content-Length: " + spec.length.value_or(std::to_string(spec.block.size())) + "\r\n";
  if (spec.block_digest) r += "WARC-Block-Digest: sha1:" + base32(crd::sha1(spec.block)) + "\r\n";
  r += "\r\n";
  r += spec.block;
  r += "\r\n\r\n";
  return r;
}

std::string warc_response(const std::string& uri, const std::string& body, int status) {
  WarcRecordSpec s;
  s.uri = uri;
  s.block = http_response(status, "", body);
  return warc_record(s);
}

namespace {
std::string deflate_with(const std::string& data, int window_bits, int level = 6) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate");
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}
}  // namespace

std::string gzip_member(const std::string& data) { return deflate_with(data, 16 + MAX_WBITS); }
std::string gzip_stored(const std::string& data) { return deflate_with(data, 16 + MAX_WBITS, 0); }

std::string zlib_compress(const std::string& data, bool raw_deflate) {
  return deflate_with(data, raw_deflate ? -MAX_WBITS : MAX_WBITS);
}

std::string chunked(const std::vector<std::string>& chunks) {
  std::string out;
  char size[32];
  for (const std::string& c : chunks) {
    std::snprintf(size, sizeof size, "%zx", c.size());
    out += size;
    out += "\r\n" + c + "\r\n";
  }
  out += "0\r\n\r\n";
  return out;
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& bytes) {
  std::string path = dir + "/" + name;
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + path);
  return path;
}

std::map<std::string, std::uint64_t> ReadResult::skips() const {
  std::map<std::string, std::uint64_t> out;
  for (const auto& [k, v] : counters.values()) {
    if (k.rfind("skipped.", 0) == 0) out[k.substr(8)] = v;
  }
  return out;
}

namespace {

ReadResult read_once(const std::string& path, InputKind kind, const ReadOptions& options) {
  ReadResult r;
  InputFile f{path, path, 0, kind};
  read_input(f, r.counters, [&](Document&& d) { r.docs.push_back(std::move(d)); }, options, &r.errors);
  return r;
}

std::string describe(const Document& d) {
  return d.url + " [" + d.content_type + ";" + d.charset + "] @" + std::to_string(d.offset) + "/" +
         std::to_string(d.stream_offset) + " " + std::to_string(d.body.size()) + " bytes";
}

// Reports the first difference between a read with production buffers and one with tiny ones.
void expect_same(const ReadResult& want, const ReadResult& got, std::size_t tiny) {
  const std::string at = " (ByteStream buffers of " + std::to_string(tiny) + " bytes)";
  if (got.docs.size() != want.docs.size()) {
    ADD_FAILURE() << got.docs.size() << " documents instead of " << want.docs.size() << at;
  }
  for (std::size_t i = 0; i < std::min(got.docs.size(), want.docs.size()); ++i) {
    const Document& a = want.docs[i];
    const Document& b = got.docs[i];
    if (a.url != b.url || a.content_type != b.content_type || a.charset != b.charset || a.body != b.body ||
        a.source != b.source || a.offset != b.offset || a.stream_offset != b.stream_offset) {
      ADD_FAILURE() << "document " << i << " differs" << at << ":\n  " << describe(b) << "\ninstead of\n  "
                    << describe(a);
      return;
    }
  }
  // input.bytes counts bytes read from disk, which resynchronising re-reads and skipping seeks
  // over by amounts that depend on the buffer sizes; gzip.unverified counts documents used before
  // their member's end was decoded, which depends on them too. Every other counter must be equal.
  auto sized = [](const std::string& name) { return name == "input.bytes" || name == "gzip.unverified"; };
  for (const auto& [name, value] : want.counters.values()) {
    if (sized(name)) continue;
    if (got.counters.get(name) != value) ADD_FAILURE() << name << " = " << got.counters.get(name) << " instead of " << value << at;
  }
  for (const auto& [name, value] : got.counters.values()) {
    if (!sized(name) && want.counters.get(name) == 0 && value != 0) ADD_FAILURE() << name << " = " << value << " instead of 0" << at;
  }
  if (got.errors.size() != want.errors.size()) ADD_FAILURE() << "error lists differ" << at;
  for (std::size_t i = 0; i < std::min(got.errors.size(), want.errors.size()); ++i) {
    const ReadError& a = want.errors[i];
    const ReadError& b = got.errors[i];
    if (a.file != b.file || a.offset != b.offset || a.reason != b.reason) {
      ADD_FAILURE() << "error " << i << " differs" << at << ": " << b.reason << " @" << b.offset << " instead of "
                    << a.reason << " @" << a.offset;
    }
  }
}

}  // namespace

ReadResult read_file(const std::string& path, InputKind kind, const ReadOptions& options) {
  ReadResult r = read_once(path, kind, options);
  if (options.test_stream_bytes != 0) return r;
  // Every reader test also reads with tiny buffers and reads, so every record crosses the buffer's
  // end many times: what a reader keeps across a refill must not change what it delivers.
  for (std::size_t tiny : {64, 7}) {
    ReadOptions small = options;
    small.test_stream_bytes = tiny;
    expect_same(r, read_once(path, kind, small), tiny);
  }
  return r;
}

}  // namespace crd::io::test
