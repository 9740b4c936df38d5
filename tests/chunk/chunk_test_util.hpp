// Helpers for chunker tests: run a chunker and collect its chunks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "crd/chunk/chunker.hpp"

namespace crd::chunk::test {

inline std::vector<std::string> run(Chunker& chunker, std::string_view page, std::string_view charset = "") {
  std::vector<std::string> out;
  chunker.chunk(page, charset, [&](std::string_view c) { out.emplace_back(c); });
  return out;
}

inline std::vector<std::string> run(std::string_view kind, std::string_view page,
                                    std::vector<std::string> tags = {"p", "div"},
                                    std::string_view charset = "") {
  ChunkerOptions options;
  options.tags = std::move(tags);
  auto chunker = make_chunker(*parse_enum<ChunkerKind>(kind), options);
  return run(*chunker, page, charset);
}

using Chunks = std::vector<std::string>;

}  // namespace crd::chunk::test
