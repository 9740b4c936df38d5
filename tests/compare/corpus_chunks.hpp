// The documentation corpus's chunks (the default chunker) from the first HTML files of one of its
// sites, for tests of the comparison on real text; empty when the corpus is absent.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "crd/chunk/chunker.hpp"
#include "support/test_paths.hpp"

namespace crd::compare {

inline std::vector<std::string> corpus_chunks(const std::string& site, std::size_t max_files) {
  std::vector<std::string> out;
  const auto dir = testing::corpus_dir();
  if (!dir) return out;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(*dir + "/" + site))
    if (e.path().extension() == ".html") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  files.resize(std::min(files.size(), max_files));
  auto chunker = chunk::make_chunker(crd::chunk::ChunkerKind::Scan, {});
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    chunker->chunk(s.str(), "", [&](std::string_view c) { out.emplace_back(c); });
  }
  return out;
}

}  // namespace crd::compare
