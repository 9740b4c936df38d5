// neighborhood_prefixes and prefix_owner: which neighborhoods a page key belongs to, and where they live.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "prefix_owner.hpp"
#include "url_prefixes.hpp"

namespace crd::detect {
namespace {

struct Expected {
  std::string text;
  int depth;
};

void expect_prefixes(std::string_view key, int max_depth, const std::vector<Expected>& expected) {
  const auto got = neighborhood_prefixes(key, max_depth);
  ASSERT_EQ(got.size(), expected.size()) << key << " max_depth " << max_depth;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].text, expected[i].text) << key << " #" << i;
    EXPECT_EQ(got[i].depth, expected[i].depth) << key << " #" << i;
  }
}

TEST(NeighborhoodPrefixes, HostOnlyKey) {
  expect_prefixes("example.org", -1, {{"example.org", 0}});
  expect_prefixes("example.org", 0, {{"example.org", 0}});
  expect_prefixes("example.org", 3, {{"example.org", 0}});
}

TEST(NeighborhoodPrefixes, PageAtHostRoot) {
  expect_prefixes("example.org/index.html", -1, {{"example.org", 0}});
  expect_prefixes("example.org/", -1, {{"example.org", 0}});
}

TEST(NeighborhoodPrefixes, NestedPathUnlimited) {
  expect_prefixes("host/a/b/page", -1, {{"host", 0}, {"host/a", 1}, {"host/a/b", 2}});
}

TEST(NeighborhoodPrefixes, MaxDepth) {
  expect_prefixes("host/a/b/page", 0, {{"host", 0}});
  expect_prefixes("host/a/b/page", 1, {{"host", 0}, {"host/a", 1}});
  expect_prefixes("host/a/b/page", 2, {{"host", 0}, {"host/a", 1}, {"host/a/b", 2}});
  expect_prefixes("host/a/b/page", 9, {{"host", 0}, {"host/a", 1}, {"host/a/b", 2}});
}

TEST(NeighborhoodPrefixes, TrailingSlashDirectoryPage) {
  // "host/a/" is the directory page of host/a: it belongs to host and host/a.
  expect_prefixes("host/a/", -1, {{"host", 0}, {"host/a", 1}});
}

TEST(NeighborhoodPrefixes, PrefixesAreViewsIntoTheKey) {
  const std::string key = "h/x/y";
  for (const auto& p : neighborhood_prefixes(key, -1)) {
    EXPECT_EQ(p.text.data(), key.data());
    EXPECT_EQ(key.substr(0, p.text.size()), p.text);
  }
}

TEST(PrefixOwner, InRangeDeterministicAndSpread) {
  for (int n = 1; n <= 7; ++n) {
    std::vector<int> hits(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < 2000; ++i) {
      const std::string p = "host" + std::to_string(i % 50) + "/dir" + std::to_string(i);
      const int owner = prefix_owner(p, n);
      ASSERT_GE(owner, 0);
      ASSERT_LT(owner, n);
      EXPECT_EQ(owner, prefix_owner(p, n));
      ++hits[static_cast<std::size_t>(owner)];
    }
    for (int h : hits) EXPECT_GT(h, 2000 / n / 2) << "prefixes spread over " << n << " ranks";
  }
  EXPECT_EQ(prefix_owner("", 1), 0);
}

}  // namespace
}  // namespace crd::detect
