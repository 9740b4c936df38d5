// Test archive builders: plain string assembly plus zlib for the compressed variants.
#include "archive_builder.hpp"

#include <zlib.h>

#include <fstream>
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

std::string warc_record(const WarcRecordSpec& spec) {
  std::string r = "WARC/1.1\r\n";
  if (!spec.omit_type) r += "WARC-Type: " + spec.type + "\r\n";
  r += "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n";
  r += "WARC-Date: 2024-01-01T00:00:00Z\r\n";
  if (!spec.uri.empty()) r += "WARC-Target-URI: " + spec.uri + "\r\n";
  if (!spec.content_type.empty()) r += "Content-Type: " + spec.content_type + "\r\n";
  if (!spec.omit_length) r += "Content-Length: " + spec.length.value_or(std::to_string(spec.block.size())) + "\r\n";
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
std::string deflate_with(const std::string& data, int window_bits) {
  z_stream zs{};
  if (deflateInit2(&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
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

ReadResult read_file(const std::string& path, InputKind kind, const ReadOptions& options) {
  ReadResult r;
  InputFile f{path, path, 0, kind};
  read_input(f, r.counters, [&](Document&& d) { r.docs.push_back(std::move(d)); }, options, &r.errors);
  return r;
}

}  // namespace crd::io::test
