// libFuzzer target: the scan chunker and whitespace normalization (SIMD paths vs a byte loop).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "crd/chunk/chunker.hpp"

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// The normalization rule of docs/chunking.md, one byte at a time.
std::string reference_normalize(std::string_view in) {
  std::string out;
  bool pending_space = false;
  for (char c : in) {
    if (is_ws(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

std::string strip_ws(std::string_view in) {
  std::string out;
  for (char c : in) {
    if (!is_ws(c)) out += c;
  }
  return out;
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_scan_chunker: invariant broken: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view page(reinterpret_cast<const char*>(data), size);
  std::string normalized;
  crd::chunk::normalize_whitespace(page, normalized);
  check(normalized == reference_normalize(page), "normalize_whitespace differs from the byte-loop rule");

  static const auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, crd::chunk::ChunkerOptions{});
  std::string joined;  // every chunk without whitespace, in order
  std::size_t n = 0;
  chunker->chunk(page, "", [&](std::string_view chunk) {
    check(!chunk.empty(), "empty chunk emitted");
    check(chunk.front() != ' ' && chunk.back() != ' ', "chunk not trimmed");
    check(chunk.find("  ") == std::string_view::npos, "chunk holds a double space");
    for (char c : chunk) check(c == ' ' || !is_ws(c), "chunk holds unnormalized whitespace");
    check(n == 0 || chunk.front() == '<', "a later chunk does not start at a boundary '<'");
    joined += strip_ws(chunk);
    ++n;
  });
  // Chunks are consecutive spans covering the page: nothing but whitespace is lost or repeated.
  check(joined == strip_ws(page), "chunks do not cover the page");
  return 0;
}
