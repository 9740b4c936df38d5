// LocalTally: counts, dense first-seen ids, smallest-key page, truncated samples, find.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "crd/base/binary_file.hpp"
#include "crd/discover/local_tally.hpp"
#include "crd/hash/sha1.hpp"
#include "support/test_paths.hpp"

namespace crd::discover {
namespace {

TEST(LocalTally, CountsIdsAndTotals) {
  const PageKeys keys{"m.org/x", "a.org/y", "z.org/z"};
  LocalTally tally(16);
  const Digest a = sha1("alpha");
  const Digest b = sha1("beta");
  EXPECT_EQ(tally.add(a, 5, "alpha", 0, keys), 0u);
  EXPECT_EQ(tally.add(b, 4, "beta", 0, keys), 1u);
  EXPECT_EQ(tally.add(a, 5, "alpha", 1, keys), 0u);
  EXPECT_EQ(tally.add(a, 5, "alpha", 2, keys), 0u);
  EXPECT_EQ(tally.distinct(), 2u);
  EXPECT_EQ(tally.total(), 4u);
  EXPECT_EQ(tally.count(0), 3u);
  EXPECT_EQ(tally.count(1), 1u);
  EXPECT_EQ(tally.length(0), 5u);
  EXPECT_EQ(tally.length(1), 4u);
  EXPECT_EQ(tally.digest(0), a);
  EXPECT_EQ(tally.digest(1), b);
  EXPECT_EQ(tally.find(a), 0);
  EXPECT_EQ(tally.find(b), 1);
  EXPECT_EQ(tally.find(sha1("gamma")), -1);
  EXPECT_GT(tally.memory_bytes(), 0u);
}

TEST(LocalTally, FirstPageIsSmallestKeyNotFirstSeen) {
  // Page order: 0 "m…", 1 "a…", 2 "z…", 3 "a.org/a" (smallest of all).
  const PageKeys keys{"m.org/x", "a.org/y", "z.org/z", "a.org/a"};
  LocalTally tally(0);
  const Digest d = sha1("x");
  tally.add(d, 1, {}, 0, keys);
  EXPECT_EQ(tally.first_page(0), 0u);
  tally.add(d, 1, {}, 2, keys);  // larger key: unchanged
  EXPECT_EQ(tally.first_page(0), 0u);
  tally.add(d, 1, {}, 1, keys);
  EXPECT_EQ(tally.first_page(0), 1u);
  tally.add(d, 1, {}, 0, keys);  // seen again on a larger key
  EXPECT_EQ(tally.first_page(0), 1u);
  tally.add(d, 1, {}, 3, keys);
  EXPECT_EQ(tally.first_page(0), 3u);
  tally.add(d, 1, {}, 3, keys);  // same page twice
  EXPECT_EQ(tally.first_page(0), 3u);
  EXPECT_EQ(tally.count(0), 6u);
}

// first_page skips the key comparison while the page added has the greatest key so far; against
// the rule compared at every add (a smaller key takes over; ties keep the page seen first), on
// pages added in key order, nearly in key order (inversions and equal keys), and out of order.
TEST(LocalTally, FirstPageMatchesComparingEveryAdd) {
  std::mt19937 rng(7);
  for (int shape = 0; shape < 3; ++shape) {
    PageKeys keys;
    for (int p = 0; p < 400; ++p) {
      const int k = shape == 0 ? p : p + static_cast<int>(rng() % 60) - 30;  // shape 1, 2: inversions
      const std::string n = std::to_string(1000 + k / (shape == 0 ? 1 : 2));  // shape 1, 2: equal keys
      keys.push_back("host/" + n);
    }
    std::vector<std::uint32_t> pages(400);
    for (std::uint32_t p = 0; p < 400; ++p) pages[p] = p;
    if (shape == 2) std::shuffle(pages.begin(), pages.end(), rng);  // pages in any order
    if (shape == 2) pages.insert(pages.begin() + 100, pages.begin(), pages.begin() + 20);  // and again
    LocalTally tally(0);
    std::vector<std::uint32_t> expected;  // by id
    for (const std::uint32_t page : pages)
      for (int c = 0; c < 30; ++c) {
        const std::uint32_t item = rng() % 500;
        const std::uint32_t id = tally.add(sha1("item" + std::to_string(item)), 1, {}, page, keys);
        if (id == expected.size()) {
          expected.push_back(page);
        } else if (page != expected[id] && keys[page] < keys[expected[id]]) {
          expected[id] = page;
        }
      }
    ASSERT_EQ(tally.distinct(), expected.size());
    for (std::uint32_t id = 0; id < expected.size(); ++id) EXPECT_EQ(tally.first_page(id), expected[id]) << shape << " " << id;
  }
}

TEST(LocalTally, SamplesTruncatedAndKeptFromFirstSight) {
  const PageKeys keys{"h/p"};
  LocalTally tally(8);
  const std::string long_text = "0123456789abcdef";
  const std::string short_text = "abc";
  tally.add(sha1(long_text), long_text.size(), long_text, 0, keys);
  tally.add(sha1(short_text), short_text.size(), short_text, 0, keys);
  tally.add(sha1("exact8!!"), 8, "exact8!!", 0, keys);
  tally.add(sha1(""), 0, "", 0, keys);
  EXPECT_EQ(tally.sample(0), "01234567");
  EXPECT_EQ(tally.length(0), 16u) << "length is the full item's, not the sample's";
  EXPECT_EQ(tally.sample(1), "abc");
  EXPECT_EQ(tally.sample(2), "exact8!!");
  EXPECT_EQ(tally.sample(3), "");
  // A later occurrence does not replace or append to the sample.
  tally.add(sha1(short_text), short_text.size(), "different", 0, keys);
  EXPECT_EQ(tally.sample(1), "abc");
  EXPECT_EQ(tally.sample(2), "exact8!!");
}

TEST(LocalTally, NoSamplesWhenSampleBytesZero) {
  const PageKeys keys{"h/p"};
  LocalTally tally(0);
  tally.add(sha1("abc"), 3, "abc", 0, keys);
  EXPECT_EQ(tally.sample(0), "");
}

TEST(LocalTally, ManyDistinctItems) {
  PageKeys keys;
  for (int p = 0; p < 100; ++p) {
    const std::string n = std::to_string(1000 - p);
    keys.push_back("host/page" + std::string(4 - n.size(), '0') + n);  // fixed width: descending keys
  }
  LocalTally tally(4);
  for (int round = 0; round < 3; ++round)
    for (std::uint32_t i = 0; i < 20000; ++i) {
      const std::string text = "item" + std::to_string(i);
      const std::uint32_t page = (i + static_cast<std::uint32_t>(round) * 37) % 100;
      EXPECT_EQ(tally.add(sha1(text), text.size(), text, page, keys), i);
    }
  ASSERT_EQ(tally.distinct(), 20000u);
  EXPECT_EQ(tally.total(), 60000u);
  for (std::uint32_t i = 0; i < 20000; i += 997) {
    EXPECT_EQ(tally.count(i), 3u);
    EXPECT_EQ(tally.sample(i), "item");
    EXPECT_EQ(tally.find(sha1("item" + std::to_string(i))), static_cast<std::int64_t>(i));
    // Keys descend with the page index: the largest page index seen wins.
    std::uint32_t best = 0;
    for (std::uint32_t r = 0; r < 3; ++r) best = std::max(best, (i + r * 37) % 100);
    EXPECT_EQ(tally.first_page(i), best);
  }
}

// Samples fill fixed 4 MiB blocks without straddling them; 12 MB of samples cross several block
// ends, and a checkpoint round trip keeps every sample.
TEST(LocalTally, SamplesAcrossBlocksSurviveACheckpoint) {
  PageKeys keys{"host/a"};
  LocalTally tally(3000);
  const auto text_of = [](std::uint32_t i) {
    std::string t = "chunk " + std::to_string(i) + " ";
    t.resize(1000 + (i * 7919) % 2500, static_cast<char>('a' + i % 26));  // 1000..3499 bytes
    return t;
  };
  constexpr std::uint32_t kItems = 6000;
  for (std::uint32_t i = 0; i < kItems; ++i) {
    const std::string t = text_of(i);
    ASSERT_EQ(tally.add(sha1(t), t.size(), t, 0, keys), i);
  }
  const auto check = [&](const LocalTally& t) {
    ASSERT_EQ(t.distinct(), kItems);
    for (std::uint32_t i = 0; i < kItems; ++i) ASSERT_EQ(t.sample(i), text_of(i).substr(0, 3000)) << i;
  };
  check(tally);
  EXPECT_GT(tally.memory_bytes(), 12'000'000u);

  const std::string path = crd::testing::make_temp_dir("local-tally") + "/tally.bin";
  {
    BinaryFileWriter out(path);
    tally.save(out);
    out.close();
  }
  BinaryFileReader in(path);
  const LocalTally loaded = LocalTally::load(in);
  check(loaded);
  EXPECT_EQ(loaded.find(sha1(text_of(4321))), 4321);
}

// A tally loaded from a checkpoint does not know its pages' keys: a page added after the load
// still takes first_page from a counted page with a greater key.
TEST(LocalTally, FirstPageAfterACheckpointLoadComparesKeys) {
  const PageKeys keys{"z.org/", "a.org/"};
  LocalTally tally(0);
  tally.add(sha1("x"), 1, {}, 0, keys);
  const std::string path = crd::testing::make_temp_dir("local-tally-keys") + "/tally.bin";
  {
    BinaryFileWriter out(path);
    tally.save(out);
    out.close();
  }
  BinaryFileReader in(path);
  LocalTally loaded = LocalTally::load(in);
  loaded.add(sha1("x"), 1, {}, 1, keys);
  EXPECT_EQ(loaded.first_page(0), 1u);
  EXPECT_EQ(loaded.count(0), 2u);
}

// first_page compares the keys' first 8 bytes before the keys: keys that differ inside them,
// only past them, are shorter than 8 bytes, hold NULs or bytes over 0x7f (ordered unsigned, as
// std::string orders them), on pages in any order, and after a checkpoint load whose first page
// is one this tally has not seen (a later index than the page added).
TEST(LocalTally, FirstPageOrderOfKeyPrefixesIsTheKeysOrder) {
  using namespace std::string_literals;
  const PageKeys keys{"b"s,         "a\xff"s,     "a\x01"s,    "a"s,     ""s,          "ab\0c"s, "ab\0"s,
                      "abcdefgh1"s, "abcdefgh0"s, "abcdefgh"s, "\x80x"s, "abcdefgg9"s, "zz"s,    "ab"s};
  std::mt19937 rng(3);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::uint32_t> pages(keys.size());
    for (std::uint32_t p = 0; p < pages.size(); ++p) pages[p] = p;
    std::shuffle(pages.begin(), pages.end(), rng);
    pages.resize(1 + rng() % pages.size());
    LocalTally tally(0);
    std::uint32_t expected = pages[0];
    for (const std::uint32_t page : pages) {
      tally.add(sha1("x"), 1, {}, page, keys);
      if (keys[page] < keys[expected]) expected = page;
    }
    ASSERT_EQ(tally.first_page(0), expected) << round;
  }
  const PageKeys two{"a.org/", "z.org/"};
  LocalTally tally(0);
  tally.add(sha1("y"), 1, {}, 1, two);
  const std::string path = crd::testing::make_temp_dir("local-tally-prefix") + "/tally.bin";
  {
    BinaryFileWriter out(path);
    tally.save(out);
    out.close();
  }
  BinaryFileReader in(path);
  LocalTally loaded = LocalTally::load(in);
  loaded.add(sha1("y"), 1, {}, 0, two);
  EXPECT_EQ(loaded.first_page(0), 0u);
}

}  // namespace
}  // namespace crd::discover
