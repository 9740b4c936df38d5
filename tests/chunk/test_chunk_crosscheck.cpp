// Cross-check: a slow, obviously-correct reference chunker written from the contract alone
// (byte at a time, no memchr, no tables, no vectors) against the fast scan chunker.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "chunk_test_util.hpp"
#include "support/test_paths.hpp"

namespace {

using crd::chunk::test::Chunks;

class ReferenceChunker {
 public:
  // prefix: --boundary-match prefix, a tag name need only start with a boundary name.
  explicit ReferenceChunker(std::vector<std::string> tags, bool prefix = false)
      : tags_(std::move(tags)), prefix_(prefix) {
    for (auto& t : tags_) {
      for (char& c : t) c = lower(c);
    }
  }

  Chunks chunk(std::string_view page) const {
    std::vector<std::size_t> starts{0};
    std::size_t i = 0;
    while (i < page.size()) {
      if (page.substr(i, 4) == "<!--") {
        const std::size_t close = page.find("-->", i + 2);
        i = close == std::string_view::npos ? page.size() : close + 3;
        continue;
      }
      if (page[i] == '<') {
        for (const std::string& tag : tags_) {
          if (prefix_ ? starts_with_name(page, i + 1, tag) : is_tag(page, i + 1, tag)) {
            starts.push_back(i);
            break;
          }
        }
        std::string_view raw;
        if (is_tag(page, i + 1, "script")) raw = "script";
        if (is_tag(page, i + 1, "style")) raw = "style";
        if (!raw.empty()) {
          std::size_t j = i + 1 + raw.size();
          while (j < page.size() && !(page[j] == '<' && j + 1 < page.size() && page[j + 1] == '/' &&
                                      is_tag(page, j + 2, raw))) {
            ++j;
          }
          i = j < page.size() ? j + 2 + raw.size() : page.size();
          continue;
        }
      }
      ++i;
    }
    starts.push_back(page.size());
    Chunks out;
    for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
      std::string n = normalize(page.substr(starts[k], starts[k + 1] - starts[k]));
      if (!n.empty()) out.push_back(std::move(n));
    }
    return out;
  }

 private:
  static char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

  static bool starts_with_name(std::string_view page, std::size_t at, std::string_view name) {
    if (at + name.size() > page.size()) return false;
    for (std::size_t k = 0; k < name.size(); ++k) {
      if (lower(page[at + k]) != name[k]) return false;
    }
    return true;
  }

  static bool is_tag(std::string_view page, std::size_t at, std::string_view name) {
    if (!starts_with_name(page, at, name)) return false;
    const std::size_t after = at + name.size();
    return after == page.size() || is_space(page[after]) || page[after] == '/' || page[after] == '>';
  }

  static std::string normalize(std::string_view s) {
    std::string out;
    for (char c : s) {
      if (!is_space(c)) {
        out += c;
      } else if (!out.empty() && out.back() != ' ') {
        out += ' ';
      }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  }

  std::vector<std::string> tags_;
  bool prefix_ = false;
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string s(static_cast<std::size_t>(std::filesystem::file_size(p)), '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  return s;
}

void expect_same(const std::vector<std::string>& tags, std::string_view page, const std::string& what,
                 bool prefix = false) {
  const ReferenceChunker reference(tags, prefix);
  const Chunks want = reference.chunk(page);
  crd::chunk::ChunkerOptions options;
  options.tags = tags;
  options.boundary_match = prefix ? crd::chunk::BoundaryMatch::Prefix : crd::chunk::BoundaryMatch::Tag;
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Scan, options);
  const Chunks got = crd::chunk::test::run(*chunker, page);
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t k = 0; k < want.size(); ++k) ASSERT_EQ(got[k], want[k]) << what << " chunk " << k;
}

TEST(ChunkCrosscheck, RandomMarkupSoup) {
  // Pieces chosen to hit every rule, including their broken forms, glued at random.
  const std::vector<std::string> pieces = {
      "<p>", "<P ", "<div>", "<DIV/", "<pre>", "<param>", "<div2>", "</p>", "<!--", "-->", "--",
      "<!-", "<script>", "<SCRIPT", "</script>", "</ScRiPt ", "</scripty>", "<style>", "</style/",
      "<styles>", "<li>", "<", ">", "/", " ", "  ", "\t", "\n", "\r\n", "\f", "\v", "\xc2\xa0", "text",
      "a", "&amp;", "<!---->", "<!-->", "<h2>"};
  std::mt19937 rng(2024);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> len(0, 120);
  for (int round = 0; round < 4000; ++round) {
    std::string page;
    for (int k = len(rng); k > 0; --k) page += pieces[pick(rng)];
    const std::vector<std::string> tags =
        round % 3 == 0 ? std::vector<std::string>{"li", "H2", "script"} : std::vector<std::string>{"p", "div"};
    expect_same(tags, page, "round " + std::to_string(round));
    expect_same(tags, page, "prefix mode, round " + std::to_string(round), true);
    if (HasFatalFailure()) return;
  }
}

TEST(ChunkCrosscheck, EveryCorpusPageMatchesReference) {
  const auto dir = crd::testing::corpus_dir();
  if (!dir) GTEST_SKIP() << "Debian documentation corpus absent (scripts/fetch_corpus.sh)";
  namespace fs = std::filesystem;
  std::vector<fs::path> pages;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(*dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".html") pages.push_back(it->path());
  }
  std::sort(pages.begin(), pages.end());
  ASSERT_FALSE(pages.empty());
  std::size_t differ = 0;  // pages the released code's prefix chunking cuts differently
  for (const fs::path& p : pages) {
    const std::string page = read_file(p);
    expect_same({"p", "div"}, page, p.string());
    expect_same({"p", "div"}, page, "prefix mode, " + p.string(), true);
    if (HasFatalFailure()) return;
    differ += ReferenceChunker({"p", "div"}).chunk(page) != ReferenceChunker({"p", "div"}, true).chunk(page);
  }
  std::cout << "cross-checked " << pages.size() << " corpus pages in both boundary modes; " << differ
            << " are chunked differently by --boundary-match prefix\n";
  EXPECT_GT(differ, 0u) << "the corpus has <pre> pages: the two modes must differ somewhere";
}

}  // namespace
