// Winnowing and the winnow chunker: the selection rule, the guarantee (a shared run of W + K − 1
// words is always found, none shorter than K words ever is), the exact bound (a run of
// W + K − 2 words that is missed), and the density 2 / (W + 1) on random and real text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "chunk_test_util.hpp"
#include "crd/text/shingles.hpp"
#include "crd/text/tokenizer.hpp"
#include "support/test_paths.hpp"
#include "winnow.hpp"

namespace {

using crd::chunk::detail::winnow;
using Words = std::vector<std::string>;

std::unique_ptr<crd::chunk::Chunker> winnower(std::uint32_t k, std::uint32_t w) {
  crd::chunk::ChunkerOptions options;
  options.gram_words = k;
  options.window = w;
  return crd::chunk::make_chunker(crd::chunk::ChunkerKind::Winnow, options);
}

std::string page_of(const Words& words) {
  std::string page = "<p>";
  for (const auto& w : words) page += w + " ";
  return page + "</p>";
}

std::set<std::string> fingerprints(crd::chunk::Chunker& chunker, const Words& words) {
  const auto chunks = crd::chunk::test::run(chunker, page_of(words));
  return {chunks.begin(), chunks.end()};
}

bool share(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& x) { return b.contains(x); });
}

// Random words from a vocabulary of their own (prefix), so two vocabularies never share a word.
Words random_words(std::mt19937_64& rng, std::size_t n, const std::string& prefix) {
  Words out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(prefix + std::to_string(rng() % 100000));
  return out;
}

Words spliced(Words outer, const Words& run, std::size_t at) {
  outer.insert(outer.begin() + static_cast<std::ptrdiff_t>(at), run.begin(), run.end());
  return outer;
}

TEST(Winnow, SelectsEveryWindowsRightmostMinimumOnce) {
  EXPECT_EQ(winnow(std::vector<std::uint64_t>{}, 4), std::vector<std::size_t>{});
  EXPECT_EQ(winnow(std::vector<std::uint64_t>{7, 3, 9}, 4), (std::vector<std::size_t>{1})) << "one short window";
  // Windows 5 1 4 | 1 4 1 (the 1 at 1 is kept) | 4 1 8 | 1 8 9 | 8 9 9 | 9 9 2.
  EXPECT_EQ(winnow(std::vector<std::uint64_t>{5, 1, 4, 1, 8, 9, 9, 2}, 3), (std::vector<std::size_t>{1, 3, 4, 7}));
  // Equal hashes: the rightmost of the first window, kept while it is inside (robust winnowing).
  EXPECT_EQ(winnow(std::vector<std::uint64_t>(7, 5), 3), (std::vector<std::size_t>{2, 5}));
  EXPECT_EQ(winnow(std::vector<std::uint64_t>{4, 4, 2, 3}, 1), (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(Winnow, EveryWindowHoldsASelectedMinimumOnRandomHashes) {
  std::mt19937_64 rng(35);
  std::vector<std::size_t> reused;  // the overload that refills a caller's vector gives the same
  for (std::size_t w : {1u, 2u, 4u, 7u, 16u}) {
    for (int round = 0; round < 50; ++round) {
      std::vector<std::uint64_t> h(1 + rng() % 300);
      for (auto& x : h) x = rng() % (round % 2 == 0 ? 8 : ~0ull);  // few values: many ties
      const auto sel = winnow(h, w);
      winnow(h, w, reused);
      ASSERT_EQ(reused, sel);
      ASSERT_TRUE(std::is_sorted(sel.begin(), sel.end()));
      ASSERT_EQ(std::adjacent_find(sel.begin(), sel.end()), sel.end()) << "a position recorded twice";
      const std::size_t span = std::min(w, h.size());
      for (std::size_t b = 0; b + span <= h.size(); ++b) {
        const std::uint64_t min = *std::min_element(h.begin() + static_cast<std::ptrdiff_t>(b),
                                                    h.begin() + static_cast<std::ptrdiff_t>(b + span));
        EXPECT_TRUE(std::any_of(sel.begin(), sel.end(), [&](std::size_t p) { return p >= b && p < b + span && h[p] == min; }))
            << "window " << b << " of " << w;
      }
    }
  }
}

TEST(Winnow, KeepsAboutTwoInWPlusOneOfRandomHashes) {
  std::mt19937_64 rng(3);
  std::vector<std::uint64_t> h(200000);
  for (auto& x : h) x = rng();
  for (std::size_t w : {4u, 8u, 16u}) {
    const double density = static_cast<double>(winnow(h, w).size()) / static_cast<double>(h.size());
    EXPECT_NEAR(density, 2.0 / static_cast<double>(w + 1), 0.02 / static_cast<double>(w + 1)) << "W = " << w;
  }
}

TEST(WinnowChunker, EmitsTheSelectedGramsAsText) {
  auto chunker = winnower(3, 100);  // one window of all grams: the page's minimum gram
  const auto chunks = crd::chunk::test::run(*chunker, "<p>One <b>two</b> three,<br>four &amp; five.</p>");
  ASSERT_EQ(chunks.size(), 1u);
  const std::set<std::string> grams{"One two three", "two three four", "three four five"};
  EXPECT_TRUE(grams.contains(chunks[0])) << chunks[0];
  // Window 1 keeps every gram, in page order.
  EXPECT_EQ(crd::chunk::test::run(*winnower(3, 1), "<p>One <b>two</b> three,<br>four &amp; five.</p>"),
            (crd::chunk::test::Chunks{"One two three", "two three four", "three four five"}));
  EXPECT_EQ(winnower(5, 4)->chunk("<p>Only four words here</p>", "", [](std::string_view) { FAIL(); }),
            "winnow.few_words");
}

// Any run of W + K − 1 shared words holds W whole grams, a full window whose minimum both pages
// select. Runs shorter than K words hold no gram, so nothing is shared.
TEST(WinnowChunker, FindsEverySharedRunOfWPlusKMinusOneWordsAndNoneShorterThanK) {
  std::mt19937_64 rng(12);
  for (const auto& [k, w] : {std::pair{5u, 4u}, std::pair{3u, 8u}, std::pair{1u, 5u}, std::pair{7u, 1u}}) {
    auto chunker = winnower(k, w);
    for (int round = 0; round < 200; ++round) {
      const Words run = random_words(rng, w + k - 1, "s");
      const Words a = spliced(random_words(rng, 60, "a"), run, rng() % 61);
      const Words b = spliced(random_words(rng, 60, "b"), run, rng() % 61);
      ASSERT_TRUE(share(fingerprints(*chunker, a), fingerprints(*chunker, b))) << "K " << k << " W " << w;
      if (k == 1) continue;
      const Words short_run(run.begin(), run.begin() + k - 1);
      const Words c = spliced(random_words(rng, 60, "c"), short_run, rng() % 61);
      const Words d = spliced(random_words(rng, 60, "d"), short_run, rng() % 61);
      ASSERT_FALSE(share(fingerprints(*chunker, c), fingerprints(*chunker, d)));
    }
  }
}

// The bound is exact: W + K − 2 shared words hold only W − 1 grams, and every window over them
// also holds the gram just before or just after the run. Pages whose two neighbouring grams
// hash below every inner gram therefore select none of them.
TEST(WinnowChunker, MissesARunOfWPlusKMinusTwoWordsWhenItsNeighboursHashLower) {
  constexpr std::uint32_t k = 5;
  constexpr std::uint32_t w = 4;
  constexpr std::size_t at = 30;  // the run starts at word 30 of each page
  std::mt19937_64 rng(99);
  const Words run = random_words(rng, w + k - 2, "s");
  const auto inner_grams_hash_above_neighbours = [&](const Words& page) {
    std::vector<std::uint64_t> tokens = crd::text::tokenize(page_of(page), "");
    const auto grams = crd::text::shingles(tokens, k);
    const std::uint64_t left = grams[at - 1];        // the gram ending on the run's first word
    const std::uint64_t right = grams[at + w - 1];   // the gram starting on its second word from the end
    for (std::size_t g = at; g < at + w - 1; ++g)    // the W − 1 grams wholly inside the run
      if (grams[g] <= std::max(left, right)) return false;
    return true;
  };
  const auto page_around = [&](const std::string& prefix) {
    for (int tries = 0; tries < 100000; ++tries) {
      Words page = spliced(random_words(rng, 60, prefix), run, at);
      if (inner_grams_hash_above_neighbours(page)) return page;
    }
    ADD_FAILURE() << "no page found";
    return Words{};
  };
  auto chunker = winnower(k, w);
  const Words a = page_around("a");
  const Words b = page_around("b");
  EXPECT_FALSE(share(fingerprints(*chunker, a), fingerprints(*chunker, b))) << "a run of W + K − 2 words is missed";
  // One more shared word on either side and the run is found whatever the neighbours hash to.
  Words a_longer = a;
  Words b_longer = b;
  b_longer[at + run.size()] = a_longer[at + run.size()];
  EXPECT_TRUE(share(fingerprints(*chunker, a_longer), fingerprints(*chunker, b_longer)));
}

// Random bytes (markup soup, bytes that are not UTF-8): no crash, and every chunk a gram of the
// page's terms, in page order.
TEST(WinnowChunker, RandomBytesGiveGramsOfTheirTerms) {
  std::mt19937_64 rng(7);
  auto chunker = winnower(3, 4);
  for (int round = 0; round < 100; ++round) {
    std::string page(static_cast<std::size_t>(rng() % 3000), '\0');
    const std::string_view soup = "<p> </a><b>&amp;x.y http://q/r <img src='z.png'><!-- <script>";
    for (char& c : page) c = rng() % 3 == 0 ? soup[rng() % soup.size()] : static_cast<char>(rng() % 256);
    const auto terms = crd::text::terms(page, "");
    std::vector<std::string> grams;
    for (std::size_t i = 0; i + 3 <= terms.size(); ++i) grams.push_back(terms[i] + " " + terms[i + 1] + " " + terms[i + 2]);
    std::size_t next = 0;  // chunks come in page order: each found at or after the previous one
    const std::string_view skipped = chunker->chunk(page, "", [&](std::string_view c) {
      const auto at = std::find(grams.begin() + static_cast<std::ptrdiff_t>(next), grams.end(), c);
      ASSERT_NE(at, grams.end()) << "not a gram of the page, or out of order: " << c;
      next = static_cast<std::size_t>(at - grams.begin()) + 1;
    });
    EXPECT_EQ(skipped, terms.size() < 3 ? "winnow.few_words" : "");
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// On real documentation pages (repeated navigation, code, short words) the density stays near
// random text's 2 / (W + 1): fingerprints per gram over the whole Python tutorial.
TEST(WinnowChunker, KeepsAboutTwoInWPlusOneGramsOfRealText) {
  const auto dir = crd::testing::corpus_dir();
  if (!dir) GTEST_SKIP() << "Debian documentation corpus absent (scripts/fetch_corpus.sh)";
  const std::filesystem::path tutorial = std::filesystem::path(*dir) / "python3.11-doc/usr/share/doc/python3.11/html/tutorial";
  if (!std::filesystem::is_directory(tutorial)) GTEST_SKIP() << "no Python tutorial in the corpus";
  std::vector<std::string> pages;
  for (const auto& e : std::filesystem::directory_iterator(tutorial))
    if (e.path().extension() == ".html") pages.push_back(read_file(e.path()));
  ASSERT_GE(pages.size(), 10u);
  for (const std::uint32_t w : {4u, 8u, 12u}) {
    auto chunker = winnower(5, w);
    std::uint64_t grams = 0;
    std::uint64_t kept = 0;
    for (const std::string& page : pages) {
      grams += crd::text::tokenize(page, "").size() - 4;
      kept += crd::chunk::test::run(*chunker, page).size();
    }
    const double density = static_cast<double>(kept) / static_cast<double>(grams);
    std::printf("W = %u: %llu of %llu grams kept, %.3f (2 / (W + 1) = %.3f)\n", w,
                static_cast<unsigned long long>(kept), static_cast<unsigned long long>(grams), density, 2.0 / (w + 1));
    EXPECT_NEAR(density, 2.0 / (w + 1), 0.15 * 2.0 / (w + 1)) << "W = " << w << ": " << kept << " of " << grams;
  }
}

// A UTF-16 page made every letter a term (45-57 fingerprints instead of 9, none shared with the
// same text in UTF-8): winnow reads the page in its sniffed encoding, as dom and sentence do.
TEST(WinnowChunker, ReadsUtf16AndLatin1PagesInTheirEncoding) {
  const std::string text = "<p>Grüße aus der schönen Stadt, wo die alten Häuser am Fluss stehen und leuchten.</p>";
  auto utf16 = [&](bool little) {
    // Code units of the text (all in the BMP), with the byte-order mark that names the order.
    std::string out = little ? std::string("\xff\xfe") : std::string("\xfe\xff");
    for (std::size_t i = 0; i < text.size();) {
      unsigned char c = static_cast<unsigned char>(text[i]);
      unsigned cp = c;
      std::size_t n = 1;
      if (c >= 0xc0) {
        cp = ((c & 0x1fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3fu);
        n = 2;
      }
      const char hi = static_cast<char>(cp >> 8), lo = static_cast<char>(cp & 0xff);
      out += little ? std::string{lo, hi} : std::string{hi, lo};
      i += n;
    }
    return out;
  };
  std::string latin1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0xc0) {
      latin1 += static_cast<char>(((c & 0x1fu) << 6) | (static_cast<unsigned char>(text[++i]) & 0x3fu));
    } else {
      latin1 += static_cast<char>(c);
    }
  }
  auto chunker = winnower(3, 1);  // window 1: every gram, in page order
  const auto want = crd::chunk::test::run(*chunker, text);
  ASSERT_EQ(want.size(), 12u);
  EXPECT_EQ(want[0], "Grüße aus der");
  EXPECT_EQ(want[3], "schönen Stadt wo");
  EXPECT_EQ(crd::chunk::test::run(*chunker, utf16(true)), want);
  EXPECT_EQ(crd::chunk::test::run(*chunker, utf16(false)), want);
  EXPECT_EQ(crd::chunk::test::run(*chunker, utf16(true).substr(2), "utf-16le"), want);  // labelled, no BOM
  EXPECT_EQ(crd::chunk::test::run(*chunker, latin1, "iso-8859-1"), want);
}

}  // namespace
