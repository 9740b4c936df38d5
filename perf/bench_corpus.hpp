// The benchmarks' corpus: every *.html page of the documentation corpus (CRD_CORPUS_DIR, default
// the repository's .cache/corpus), held in memory, in path order so runs see the same pages.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Corpus {
  std::vector<std::string> pages;
  std::int64_t bytes = 0;
};

// Every *.html file under the corpus directory, sorted by path so runs see the same order.
const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    const char* env = std::getenv("CRD_CORPUS_DIR");
    const fs::path root = env != nullptr ? env : CRD_DEFAULT_CORPUS_DIR;
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".html") files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::string page(static_cast<std::size_t>(fs::file_size(f, ec)), '\0');
      std::ifstream in(f, std::ios::binary);
      in.read(page.data(), static_cast<std::streamsize>(page.size()));
      page.resize(static_cast<std::size_t>(in.gcount()));
      out.pages.push_back(std::move(page));
      out.bytes += static_cast<std::int64_t>(out.pages.back().size());
    }
    std::cerr << "corpus: " << out.pages.size() << " pages, " << out.bytes << " bytes from " << root << "\n";
    return out;
  }();
  return c;
}

bool have_corpus(benchmark::State& state) {
  if (corpus().pages.empty()) {
    state.SkipWithError("no corpus: run scripts/fetch_corpus.sh or set CRD_CORPUS_DIR");
    return false;
  }
  return true;
}

}  // namespace
