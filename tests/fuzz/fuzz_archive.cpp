// libFuzzer target: the WARC/ARC reader (crd::io::read_input) on arbitrary bytes, raw or gzipped.
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "crd/io/inputs.hpp"

namespace {

// gzip-compresses `in` as one member (ByteStream's own decoder must then see valid framing,
// so the fuzzer reaches record parsing inside compressed files, not only gzip rejection).
std::string gzip_member(const std::uint8_t* data, std::size_t size) {
  z_stream zs{};
  if (deflateInit2(&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::string out(deflateBound(&zs, static_cast<uLong>(size)) + 32, '\0');
  zs.next_in = const_cast<Bytef*>(data);
  zs.avail_in = static_cast<uInt>(size);
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// The file image: mode 0 = the bytes as they are; 1 = one gzip member; 2 = a member every
// `step` bytes (per-record gzip, the common WARC layout, with members cut anywhere).
std::string file_image(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return std::string(reinterpret_cast<const char*>(data), size);
  const unsigned mode = data[0] % 3;
  const std::size_t step = 1 + data[1];
  data += 2;
  size -= 2;
  if (mode == 0) return std::string(reinterpret_cast<const char*>(data), size);
  if (mode == 1) return gzip_member(data, size);
  std::string out;
  for (std::size_t at = 0; at < size; at += step) out += gzip_member(data + at, std::min(step, size - at));
  return out;
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_archive: invariant broken: %s\n", what);
    std::abort();
  }
}

constexpr std::size_t kMaxRecordBytes = 1u << 16;  // small, so "record_too_large" paths are reachable

// What a read delivered: each document's fields, and the counters that do not depend on buffer
// sizes (input.bytes re-reads during resync, gzip.unverified depends on when a member's end is
// decoded).
struct Outcome {
  std::vector<std::string> docs;
  std::vector<std::pair<std::string, std::uint64_t>> counters;
};

Outcome read(const std::string& path, std::size_t size, crd::io::InputKind kind, std::size_t stream_bytes) {
  crd::io::ReadOptions options;
  options.max_record_bytes = kMaxRecordBytes;
  options.max_errors_per_file = 8;
  options.test_stream_bytes = stream_bytes;
  crd::io::InputFile file{path, "", size, kind};
  crd::Counters counters;
  std::vector<crd::io::ReadError> errors;
  Outcome out;
  crd::io::read_input(
      file, counters,
      [&](crd::io::Document&& doc) {
        check(doc.body.size() <= options.max_record_bytes, "document body over max_record_bytes");
        check(!doc.url.empty(), "document without URL");
        check(doc.offset <= size, "record offset past the end of the file");
        out.docs.push_back(doc.url + '\0' + doc.content_type + '\0' + doc.charset + '\0' + doc.body + '\0' +
                           std::to_string(doc.offset) + '/' + std::to_string(doc.stream_offset));
      },
      options, &errors);
  check(counters.get("documents") == out.docs.size(), "documents counter differs from documents delivered");
  check(errors.size() <= options.max_errors_per_file, "error list over its cap");
  // input.bytes (bytes read from disk) is not checked against the file size: resynchronising
  // after a damaged gzip member re-reads from the member's start + 1, and hostile files re-read
  // far more than their size (tests/hostile: false_gzip_members, docs/hostile-input.md).
  for (const auto& e : errors) {
    check(e.offset <= size, "error offset past the end of the file");
    check(counters.get("skipped." + e.reason) > 0, "reported error not counted");
  }
  for (const auto& [name, value] : counters.values()) {
    if (name != "input.bytes" && name != "gzip.unverified") out.counters.emplace_back(name, value);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("crd-fuzz-archive", 0);
  if (fd < 0) std::abort();
  const std::string image = file_image(data, size);
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, image.data(), image.size(), 0) != static_cast<ssize_t>(image.size())) {
    std::abort();
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  for (crd::io::InputKind kind : {crd::io::InputKind::Warc, crd::io::InputKind::Arc}) {
    // Each input is read with production buffers and with the 64-byte test buffers that move on
    // every refill (records crossing the buffer's end), and both must agree.
    Outcome normal = read(path, image.size(), kind, 0);
    Outcome tiny = read(path, image.size(), kind, 64);
    check(normal.docs == tiny.docs, "documents differ between production and tiny buffers");
    check(normal.counters == tiny.counters, "counters differ between production and tiny buffers");
  }
  return 0;
}
