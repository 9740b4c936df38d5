// libFuzzer target: the dom chunker (gumbo parse, charset conversion) under every declared charset.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "crd/chunk/chunker.hpp"

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_dom_chunker: invariant broken: %s\n", what);
    std::abort();
  }
}

// Declared charsets a crawl hands over, valid or not; the first byte of the input picks one.
constexpr std::string_view kCharsets[] = {"",          "utf-8",     "iso-8859-1", "windows-1252", "shift_jis",
                                          "euc-jp",    "gb2312",    "utf-16",     "utf-16le",     "koi8-r",
                                          "us-ascii",  "x-unknown", "utf-7",      "ucs-4",        "big5"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view charset = kCharsets[data[0] % std::size(kCharsets)];
  const std::string_view page(reinterpret_cast<const char*>(data + 1), size - 1);
  static const auto chunker = [] {
    crd::chunk::ChunkerOptions options;
    options.tags = {"p", "div", "li", "my-tag"};  // a custom (unknown to gumbo) tag too
    return crd::chunk::make_chunker(crd::chunk::ChunkerKind::Dom, options);
  }();
  chunker->chunk(page, charset, [&](std::string_view chunk) {
    check(!chunk.empty(), "empty chunk emitted");
    check(chunk.front() != ' ' && chunk.back() != ' ', "chunk not trimmed");
    check(chunk.find("  ") == std::string_view::npos, "chunk holds a double space");
    for (char c : chunk) check(c == ' ' || !is_ws(c), "chunk holds unnormalized whitespace");
  });
  return 0;
}
