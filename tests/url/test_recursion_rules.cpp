// Recursion-error rules on crafted paths, and the corpus check behind the max_repeat default.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>

#include "crd/url/url_key.hpp"
#include "support/test_paths.hpp"

namespace {

using crd::url::check_recursion;
using crd::url::RecursionRules;
using crd::url::RecursionVerdict;

std::string path_of_depth(int n) {
  std::string key = "host";
  for (int i = 0; i < n; ++i) key += "/d" + std::to_string(i);
  return key;
}

TEST(RecursionRules, Defaults) {
  const RecursionRules rules;
  EXPECT_EQ(rules.max_depth, 96);
  EXPECT_EQ(rules.max_repeat, 3);
}

TEST(RecursionRules, DepthCountsPathComponentsNotHost) {
  const RecursionRules rules;
  EXPECT_EQ(check_recursion(path_of_depth(96), rules), RecursionVerdict::Ok);
  EXPECT_EQ(check_recursion(path_of_depth(97), rules), RecursionVerdict::TooDeep);
  EXPECT_EQ(check_recursion("host", rules), RecursionVerdict::Ok);
  EXPECT_EQ(check_recursion("", rules), RecursionVerdict::Ok);
  RecursionRules shallow;
  shallow.max_depth = 2;
  EXPECT_EQ(check_recursion("h/a/b", shallow), RecursionVerdict::Ok);
  EXPECT_EQ(check_recursion("h/a/b/c", shallow), RecursionVerdict::TooDeep);
}

TEST(RecursionRules, CrawlerLoopsAreCaught) {
  const RecursionRules rules;
  EXPECT_EQ(check_recursion("a/b/a/b/a/b/a/b", rules), RecursionVerdict::RepeatedComponent);
  EXPECT_EQ(check_recursion("site.org/x/images/x/images/x/images/x/images/p.gif", rules),
            RecursionVerdict::RepeatedComponent);
  EXPECT_EQ(check_recursion("h/a/a/a/a", rules), RecursionVerdict::RepeatedComponent);
  // Up to max_repeat occurrences are fine, and the host never counts.
  EXPECT_EQ(check_recursion("h/a/b/a/b/a", rules), RecursionVerdict::Ok);
  EXPECT_EQ(check_recursion("a/a/a/a", rules), RecursionVerdict::Ok);
  EXPECT_EQ(check_recursion("pkg/usr/share/doc/pkg/html/index.html", rules), RecursionVerdict::Ok);
}

TEST(RecursionRules, ZeroTurnsARuleOff) {
  RecursionRules off;
  off.max_repeat = 0;
  off.max_depth = 0;
  EXPECT_EQ(check_recursion("h/a/a/a/a/a/a", off), RecursionVerdict::Ok);
  EXPECT_EQ(check_recursion(path_of_depth(500), off), RecursionVerdict::Ok);
}

// The default max_repeat must keep every path of the Debian documentation corpus, keyed the way a
// directory walk keys it ("<package>/usr/share/doc/…").
TEST(RecursionRules, DefaultsKeepEveryCorpusPath) {
  const auto dir = crd::testing::corpus_dir();
  if (!dir) GTEST_SKIP() << "Debian documentation corpus absent (scripts/fetch_corpus.sh)";
  namespace fs = std::filesystem;
  const RecursionRules rules;
  std::size_t paths = 0;
  std::size_t deepest = 0;
  int max_repeat = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(*dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string rel = fs::relative(it->path(), *dir).generic_string();
    if (rel.starts_with(".")) continue;  // fetch markers, not documentation
    const auto key = crd::url::url_key(rel);
    ASSERT_TRUE(key.has_value()) << rel;
    ++paths;
    EXPECT_EQ(check_recursion(*key, rules), RecursionVerdict::Ok) << *key;
    auto parts = crd::url::key_components(*key);
    deepest = std::max(deepest, parts.size() - 1);
    std::map<std::string_view, int> seen;
    for (std::size_t i = 1; i < parts.size(); ++i) max_repeat = std::max(max_repeat, ++seen[parts[i]]);
  }
  ASSERT_GT(paths, 0U);
  // Recorded in docs/cleaning.md; a corpus change that moves these deserves a look there.
  std::cout << "corpus paths=" << paths << " deepest=" << deepest << " max_repeat=" << max_repeat << "\n";
  EXPECT_LT(max_repeat, rules.max_repeat);
}

}  // namespace
