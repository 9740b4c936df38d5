// One undecodable byte never hides a page: with a byte that is not UTF-8 (or not in
// the declared Latin-1 charset) put into the first, a middle and the last word of a page's text,
// or before and after all its markup, the sentence chunker still emits every other sentence of
// the page, byte for byte (so the same SHA-1 chunk digests), and counts the ones it left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "chunk_test_util.hpp"
#include "support/test_paths.hpp"

namespace {

using crd::chunk::test::Chunks;

// A documentation-like page: a title, a heading, paragraphs of several sentences, a list.
std::string generated_page(bool latin1) {
  const std::string e = latin1 ? "\xe9" : "\xc3\xa9";  // é
  return "<html><head><title>Installing the package manager</title></head><body>\n"
         "<div class=\"section\"><h1>Getting started</h1>\n"
         "<p>Before you begin, check that your system is up to date. The installer needs about 200 MB "
         "of free space. It runs on every supported release.</p>\n"
         "<p>Download the archive from the project's site. Verify its checksum with the command shown "
         "below. A mismatch means the download was corrupted in transit.</p>\n"
         "<p>Run the installer as an ordinary user. It asks for your password only when it has to "
         "write to system directories. The caf" + e + " example in chapter two explains why.</p>\n"
         "<ul><li>Configure the mirrors.</li><li>Update the package index.</li></ul>\n"
         "<p>When the installation ends, log out and back in. Your new shell will find the tools. "
         "Read the next chapter for the first steps with them.</p>\n"
         "</div></body></html>\n";
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Offsets inside a word of visible text: after the first, the middle and the last "<p>" tag that
// is followed by at least three ASCII letters, between the second and third of them.
std::vector<std::size_t> word_offsets(const std::string& page) {
  std::vector<std::size_t> inside;
  for (std::size_t at = page.find("<p>"); at != std::string::npos; at = page.find("<p>", at + 1)) {
    const std::size_t t = at + 3;
    if (t + 3 <= page.size() && std::all_of(page.begin() + static_cast<std::ptrdiff_t>(t),
                                             page.begin() + static_cast<std::ptrdiff_t>(t + 3),
                                             [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      inside.push_back(t + 2);
  }
  if (inside.empty()) return {};
  return {inside.front(), inside[inside.size() / 2], inside.back()};
}

struct Chunked {
  Chunks sentences;
  std::uint64_t dropped = 0;
};

Chunked chunk(crd::chunk::Chunker& chunker, const std::string& page, std::string_view charset) {
  Chunked out;
  const std::string_view skipped =
      chunker.chunk(page, charset, [&](std::string_view s) { out.sentences.emplace_back(s); });
  EXPECT_EQ(skipped, "") << "the page must not be skipped";
  EXPECT_TRUE(out.sentences.empty() || chunker.dropped_parts()[0].reason == "sentence.invalid_utf8");
  out.dropped = chunker.dropped_parts()[0].count + chunker.dropped_parts()[1].count;
  return out;
}

// damaged must be clean with at most one sentence taken out (nothing added, nothing reordered);
// returns how many were taken out.
std::size_t removed_from(const Chunks& clean, const Chunks& damaged) {
  EXPECT_LE(damaged.size(), clean.size());
  EXPECT_GE(damaged.size() + 1, clean.size()) << "more than one sentence lost";
  std::size_t i = 0;
  while (i < damaged.size() && damaged[i] == clean[i]) ++i;
  for (std::size_t j = i; j < damaged.size(); ++j) EXPECT_EQ(damaged[j], clean[j + 1]) << "sentence " << j;
  return clean.size() - damaged.size();
}

void expect_one_sentence_lost_at_each_place(const std::string& page, std::string_view charset,
                                            std::string_view bad_byte) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Sentence, {});
  const Chunked clean = chunk(*chunker, page, charset);
  ASSERT_GE(clean.sentences.size(), 8u);
  ASSERT_EQ(clean.dropped, 0u);
  const std::vector<std::size_t> words = word_offsets(page);
  ASSERT_EQ(words.size(), 3u);
  for (const std::size_t at : words) {
    SCOPED_TRACE("byte inside the word at offset " + std::to_string(at));
    const Chunked damaged = chunk(*chunker, page.substr(0, at) + std::string(bad_byte) + page.substr(at), charset);
    EXPECT_EQ(removed_from(clean.sentences, damaged.sentences), 1u);
    EXPECT_EQ(damaged.dropped, 1u);
  }
  // Before all markup and after it: the byte is text of its own (or joins the first or last
  // sentence); nothing else changes.
  for (const std::string& damaged_page : {std::string(bad_byte) + page, page + std::string(bad_byte)}) {
    SCOPED_TRACE(damaged_page.front() == page.front() ? "byte at the end" : "byte at the start");
    const Chunked damaged = chunk(*chunker, damaged_page, charset);
    EXPECT_LE(removed_from(clean.sentences, damaged.sentences), 1u);
    EXPECT_EQ(damaged.dropped, 1u);
  }
}

TEST(OneBadByte, Utf8PageKeepsEverySentenceButTheDamagedOne) {
  // A stray continuation byte, a lead byte with its sequence cut, and bytes UTF-8 never uses.
  for (std::string_view bad : {"\x80", "\xc3", "\xff", "\xfe"}) {
    SCOPED_TRACE("byte " + std::to_string(static_cast<unsigned char>(bad[0])));
    expect_one_sentence_lost_at_each_place(generated_page(false), "", bad);
  }
}

TEST(OneBadByte, CorpusPagesKeepEverySentenceButTheDamagedOne) {
  const auto dir = crd::testing::corpus_dir();
  if (!dir) GTEST_SKIP() << "Debian documentation corpus absent (scripts/fetch_corpus.sh)";
  const std::filesystem::path tutorial = std::filesystem::path(*dir) / "python3.11-doc/usr/share/doc/python3.11/html/tutorial";
  if (!std::filesystem::is_directory(tutorial)) GTEST_SKIP() << "no Python tutorial in the corpus";
  for (const char* name : {"controlflow.html", "introduction.html", "classes.html"}) {
    SCOPED_TRACE(name);
    expect_one_sentence_lost_at_each_place(read_file(tutorial / name), "", "\xff");
  }
}

// Declared Latin-1 is decoded as windows-1252 (chunking.md), in which every byte but 0x81, 0x8D,
// 0x8F, 0x90 and 0x9D is a character. Where such a byte decodes to U+FFFD its sentence goes; a
// decoder that maps it to a C1 control keeps the sentence, changed. Either way every other
// sentence stays as on the clean page.
TEST(OneBadByte, DeclaredLatin1PageKeepsEveryOtherSentence) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Sentence, {});
  const std::string page = generated_page(true);
  const Chunked clean = chunk(*chunker, page, "iso-8859-1");
  ASSERT_GE(clean.sentences.size(), 8u);
  EXPECT_NE(std::find(clean.sentences.begin(), clean.sentences.end(),
                      "The caf\xc3\xa9 example in chapter two explains why."),
            clean.sentences.end())
      << "the page is decoded as Latin-1";
  const std::vector<std::size_t> words = word_offsets(page);
  ASSERT_EQ(words.size(), 3u);
  std::vector<std::string> pages{"\x81" + page, page + "\x81"};
  for (const std::size_t at : words) pages.push_back(page.substr(0, at) + "\x81" + page.substr(at));
  for (const std::string& damaged_page : pages) {
    const Chunked damaged = chunk(*chunker, damaged_page, "iso-8859-1");
    std::size_t kept = 0;
    std::size_t changed = 0;
    for (const std::string& s : damaged.sentences) {
      if (std::find(clean.sentences.begin(), clean.sentences.end(), s) != clean.sentences.end()) {
        ++kept;
      } else {
        ++changed;
      }
    }
    EXPECT_GE(kept + 1, clean.sentences.size()) << "more than the damaged sentence was lost";
    EXPECT_LE(changed, 1u);
    EXPECT_LE(damaged.dropped, 1u);
  }
}

}  // namespace
