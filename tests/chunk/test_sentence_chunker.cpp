// The sentence chunker: ICU's sentence breaks inside the dom chunker's blocks, on constructed and
// real text, and the pages it skips (nothing emitted, a reason given).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "chunk_test_util.hpp"
#include "support/test_paths.hpp"

namespace {

using crd::chunk::test::Chunks;

Chunks sentences(std::string_view page, std::string_view charset = "") {
  return crd::chunk::test::run("sentence", page, {"p", "div"}, charset);
}

std::string_view skip_reason(std::string_view page, std::string_view charset = "") {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Sentence, {});
  int emitted = 0;
  const std::string_view reason = chunker->chunk(page, charset, [&](std::string_view) { ++emitted; });
  EXPECT_EQ(emitted, reason.empty() ? emitted : 0) << "a skipped page must emit nothing";
  return reason;
}

TEST(SentenceChunker, SplitsVisibleTextIntoNormalizedSentences) {
  EXPECT_EQ(sentences("<html><title>T</title><p>First  sentence.\n Second one?   Third!</p><p>Heading</p>"),
            (Chunks{"T", "First sentence.", "Second one?", "Third!", "Heading"}));
  // Markup inside a sentence is not a break; script text is not visible.
  EXPECT_EQ(sentences("<p>A <b>bold</b> claim. <script>x = 'No. Never.'</script>Done."),
            (Chunks{"A bold claim.", "Done."}));
}

// The table in docs/chunking.md.
TEST(SentenceChunker, DocumentedExamples) {
  EXPECT_EQ(sentences("<p>Mr. Smith left. He said: \"Go!\" Then?</p>"),
            (Chunks{"Mr. Smith left.", "He said: \"Go!\"", "Then?"}));
  EXPECT_EQ(sentences("<div>Intro<p>It starts. Version 3.11 is out."),
            (Chunks{"Intro", "It starts.", "Version 3.11 is out."}));
  EXPECT_EQ(sentences("<p>東京です。大阪も！"), (Chunks{"東京です。", "大阪も！"}));
}

TEST(SentenceChunker, SentencesNeverCrossABoundaryElement) {
  // A heading without a full stop stays apart from the paragraph after it.
  EXPECT_EQ(sentences("<div>Introduction<p>The text starts here. It goes on."),
            (Chunks{"Introduction", "The text starts here.", "It goes on."}));
}

TEST(SentenceChunker, AbbreviationsAndNumbersDoNotEndSentences) {
  EXPECT_EQ(sentences("<p>Mr. Smith went to Washington on Monday. Version 3.11 is out, e.g. on Debian. Is it?"),
            (Chunks{"Mr. Smith went to Washington on Monday.", "Version 3.11 is out, e.g. on Debian.", "Is it?"}));
}

TEST(SentenceChunker, SplitsNonLatinScripts) {
  EXPECT_EQ(sentences("<p>東京は日本の首都です。大阪も大きい！京都は？"),
            (Chunks{"東京は日本の首都です。", "大阪も大きい！", "京都は？"}));
  EXPECT_EQ(sentences("<p>Это тест. Ещё один? Да!"), (Chunks{"Это тест.", "Ещё один?", "Да!"}));
  EXPECT_EQ(sentences("<p>هذا اختبار. هل هو جيد؟ نعم."), (Chunks{"هذا اختبار.", "هل هو جيد؟", "نعم."}));
  EXPECT_EQ(sentences("<p>यह पहला वाक्य है। यह दूसरा है।"), (Chunks{"यह पहला वाक्य है।", "यह दूसरा है।"}));
}

TEST(SentenceChunker, DecodesTheDeclaredCharset) {
  EXPECT_EQ(sentences("<p>Caf\xe9 ouvert. Ferm\xe9.", "iso-8859-1"), (Chunks{"Caf\xc3\xa9 ouvert.", "Ferm\xc3\xa9."}));
}

TEST(SentenceChunker, SkipsPagesWithNoSentences) {
  EXPECT_EQ(skip_reason(""), "sentence.none");
  EXPECT_EQ(skip_reason("<html><script>var a = 'Text. More.';</script><p> \n </p></html>"), "sentence.none");
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "<div>";
  EXPECT_EQ(skip_reason(deep + "Deep. Text."), "dom.too_deep");
  EXPECT_EQ(skip_reason("<p>Fine. Text."), "");
}

// Undecodable bytes cost the sentences holding them, counted one each; the page's other
// sentences are emitted. A page left with none is skipped as sentence.none.
TEST(SentenceChunker, DropsOnlyTheSentencesHoldingUndecodableBytes) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Sentence, {});
  EXPECT_EQ(crd::chunk::test::run(*chunker, "<p>Caf\xe9 ouvert. Other text. Good \xff\xfe bytes? Last one."),
            (Chunks{"Other text.", "Last one."}));
  EXPECT_EQ(chunker->dropped_parts()[0].reason, "sentence.invalid_utf8");
  EXPECT_EQ(chunker->dropped_parts()[0].count, 2u);
  EXPECT_EQ(chunker->chunk("<p>Caf\xe9. Ferm\xe9.", "", [](std::string_view) { FAIL() << "nothing is left"; }),
            "sentence.none");
  EXPECT_EQ(chunker->dropped_parts()[0].count, 2u);
  EXPECT_EQ(crd::chunk::test::run(*chunker, "<p>Fine. Text."), (Chunks{"Fine.", "Text."}));
  EXPECT_EQ(chunker->dropped_parts()[0].count, 0u) << "the count is the last page's";
}

// ESC and BEL (gumbo turns them into U+FFFD) were counted as sentence.invalid_utf8: a sentence
// holding a control character is left out under a reason that names it.
TEST(SentenceChunker, SentencesWithControlCharactersAreNamedForThem) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Sentence, {});
  EXPECT_EQ(crd::chunk::test::run(*chunker,
                                  "<p>Ring the \x07 bell. Escape \x1b[31m red. Fine text. C1 \xc2\x9b here. "
                                  "Caf\xe9 bad."),
            (Chunks{"Fine text."}));
  EXPECT_EQ(chunker->dropped_parts()[0].reason, "sentence.invalid_utf8");
  EXPECT_EQ(chunker->dropped_parts()[0].count, 1u);
  EXPECT_EQ(chunker->dropped_parts()[1].reason, "sentence.control_characters");
  EXPECT_EQ(chunker->dropped_parts()[1].count, 3u);
  // Whitespace controls are whitespace, as before; UTF-16 pages are marked after decoding.
  EXPECT_EQ(crd::chunk::test::run(*chunker, "<p>Tab\there. New\nline."), (Chunks{"Tab here.", "New line."}));
  EXPECT_EQ(chunker->dropped_parts()[1].count, 0u);
  const std::string utf16 = std::string("\xff\xfe") + std::string("<\0p\0>\0A\0\x07\0.\0 \0B\0.\0", 18);
  EXPECT_EQ(crd::chunk::test::run(*chunker, utf16), (Chunks{"B."}));
  EXPECT_EQ(chunker->dropped_parts()[1].count, 1u);
}

TEST(SentenceChunker, RandomBytesNeverCrashAndSkipForAKnownReason) {
  auto chunker = crd::chunk::make_chunker(crd::chunk::ChunkerKind::Sentence, {});
  std::mt19937 rng(14);
  std::uniform_int_distribution<int> byte(0, 255);
  const char* charsets[] = {"", "iso-8859-1", "shift_jis", "utf-16", "bogus"};
  const std::set<std::string_view> reasons{"", "sentence.none", "dom.too_deep"};
  std::set<std::string_view> seen;
  std::uint64_t dropped = 0;
  for (int round = 0; round < 60; ++round) {
    std::string page(static_cast<std::size_t>(round * 37), '\0');
    for (char& c : page) c = static_cast<char>(byte(rng) % (round % 2 == 0 ? 128 : 256));
    page = "<p>" + page + ". Done. <div>" + page;
    const std::string_view reason = chunker->chunk(page, charsets[round % 5], [&](std::string_view c) {
      ASSERT_FALSE(c.empty());
      EXPECT_NE(c.front(), ' ');
      EXPECT_NE(c.back(), ' ');
      EXPECT_EQ(c.find("\xEF\xBF\xBD"), std::string_view::npos) << "a sentence holding U+FFFD is left out";
    });
    EXPECT_TRUE(reasons.contains(reason)) << reason;
    seen.insert(reason);
    dropped += chunker->dropped_parts()[0].count + chunker->dropped_parts()[1].count;
  }
  EXPECT_TRUE(seen.contains("")) << "some random pages must give sentences";
  EXPECT_GT(dropped, 0u) << "random high bytes are not UTF-8";
}

std::string without_spaces(const Chunks& chunks) {
  std::string out;
  for (const auto& c : chunks)
    for (char ch : c)
      if (ch != ' ') out += ch;
  return out;
}

// On real pages the sentences partition the dom chunker's text: the same characters in the same
// order (only the spaces between sentences go), each sentence trimmed and non-empty.
TEST(SentenceChunker, SentencesPartitionTheDomTextOfCorpusPages) {
  const auto dir = crd::testing::corpus_dir();
  if (!dir) GTEST_SKIP() << "Debian documentation corpus absent (scripts/fetch_corpus.sh)";
  const std::filesystem::path tutorial = std::filesystem::path(*dir) / "python3.11-doc/usr/share/doc/python3.11/html/tutorial";
  if (!std::filesystem::is_directory(tutorial)) GTEST_SKIP() << "no Python tutorial in the corpus";
  std::vector<std::filesystem::path> pages;
  for (const auto& e : std::filesystem::directory_iterator(tutorial))
    if (e.path().extension() == ".html") pages.push_back(e.path());
  std::sort(pages.begin(), pages.end());
  ASSERT_GE(pages.size(), 10u);
  bool saw_abbreviation = false;
  for (const auto& path : pages) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const Chunks dom = crd::chunk::test::run("dom", text.str());
    const Chunks sent = sentences(text.str());
    ASSERT_GT(sent.size(), dom.size()) << path;
    EXPECT_EQ(without_spaces(sent), without_spaces(dom)) << path;
    for (std::size_t i = 0; i < sent.size(); ++i) {
      const std::string& s = sent[i];
      ASSERT_FALSE(s.empty());
      EXPECT_NE(s.front(), ' ');
      EXPECT_NE(s.back(), ' ');
      // A full stop followed by a lowercase word never ends a sentence (UAX #29, SB8), so "e.g. the"
      // stays whole. ICU does break at "(e.g. 5.0, 1.5) have": the number's own full stop ends
      // SB8's look-ahead (docs/sentences.md).
      if (s.ends_with("e.g.") && i + 1 < sent.size()) {
        const unsigned char next = static_cast<unsigned char>(sent[i + 1][0]);
        EXPECT_FALSE(next >= 'a' && next <= 'z') << path << ": " << s << " | " << sent[i + 1];
      }
      saw_abbreviation = saw_abbreviation || s.find("e.g. ") != std::string::npos;
    }
  }
  EXPECT_TRUE(saw_abbreviation);
}

}  // namespace
