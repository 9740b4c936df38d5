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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("crd-fuzz-archive", 0);
  if (fd < 0) std::abort();
  const std::string image = file_image(data, size);
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, image.data(), image.size(), 0) != static_cast<ssize_t>(image.size())) {
    std::abort();
  }
  crd::io::ReadOptions options;
  options.max_record_bytes = 1u << 16;  // small, so "record_too_large" paths are reachable
  options.max_errors_per_file = 8;
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  for (crd::io::InputKind kind : {crd::io::InputKind::Warc, crd::io::InputKind::Arc}) {
    crd::io::InputFile file{path, "", image.size(), kind};
    crd::Counters counters;
    std::vector<crd::io::ReadError> errors;
    std::uint64_t docs = 0;
    crd::io::read_input(
        file, counters,
        [&](crd::io::Document&& doc) {
          ++docs;
          check(doc.body.size() <= options.max_record_bytes, "document body over max_record_bytes");
          check(!doc.url.empty(), "document without URL");
          check(doc.offset <= image.size(), "record offset past the end of the file");
        },
        options, &errors);
    check(counters.get("documents") == docs, "documents counter differs from documents delivered");
    check(errors.size() <= options.max_errors_per_file, "error list over its cap");
    // input.bytes (bytes read from disk) is not checked against the file size: resynchronising
    // after a damaged gzip member re-reads from the member's start + 1, and hostile files re-read
    // far more than their size (tests/hostile: false_gzip_members, docs/hostile-input.md).
    for (const auto& e : errors) {
      check(e.offset <= image.size(), "error offset past the end of the file");
      check(counters.get("skipped." + e.reason) > 0, "reported error not counted");
    }
  }
  return 0;
}
