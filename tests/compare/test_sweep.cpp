// Sweep points and truth prefixes.
#include <gtest/gtest.h>

#include "crd/base/error.hpp"
#include "page_confusion.hpp"
#include "sweep.hpp"

namespace crd::compare {
namespace {

TEST(Sweep, RangesListsAndPrimaries) {
  SweepOptions o;
  o.nilsimsa_sweep = "128:126";
  o.nilsimsa_threshold = 115;
  o.tlsh_sweep = "0,50";
  o.tlsh_threshold = 50;
  o.ssdeep_sweep = "90:91";
  o.ssdeep_threshold = 91;
  const auto p = sweep_points(o);
  std::vector<std::string> got;
  for (const auto& s : p)
    got.push_back(std::string(method_name(s.method)) + ":" + std::to_string(s.threshold) + (s.primary ? "*" : ""));
  EXPECT_EQ(got, (std::vector<std::string>{"sha1:160*", "nilsimsa:128", "nilsimsa:127", "nilsimsa:126", "nilsimsa:115*",
                                           "tlsh:0", "tlsh:50*", "ssdeep:90", "ssdeep:91*"}));
}

TEST(Sweep, BadValuesNameTheOption) {
  SweepOptions o;
  o.nilsimsa_sweep = "128:x";
  try {
    sweep_points(o);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "option --nilsimsa-sweep: 'x' is not a whole number");
  }
  o = {};
  o.ssdeep_threshold = 101;
  try {
    sweep_points(o);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "option --ssdeep-threshold: 101 is outside 1…100");
  }
}

TEST(Sweep, Matching) {
  BestScores b;
  b.nilsimsa = 115, b.tlsh = 30, b.ssdeep = 0;
  EXPECT_TRUE(lsh_matches({Method::Nilsimsa, 115, true}, b));
  EXPECT_FALSE(lsh_matches({Method::Nilsimsa, 116, false}, b));
  EXPECT_TRUE(lsh_matches({Method::Tlsh, 30, true}, b));
  EXPECT_FALSE(lsh_matches({Method::Tlsh, 29, false}, b));
  EXPECT_FALSE(lsh_matches({Method::Ssdeep, 1, false}, b));  // 0 is "no match" for ssdeep
  b.tlsh = kNoTlsh;
  EXPECT_FALSE(lsh_matches({Method::Tlsh, 100000, false}, b));
}

TEST(TruthPrefixes, ComponentBoundaries) {
  const auto t = TruthPrefixes::parse("# clones\nclone1.example\r\n\nsite.example/docs/\n", "t.txt");
  EXPECT_EQ(t.size(), 2u);
  EXPECT_TRUE(t.positive("clone1.example"));
  EXPECT_TRUE(t.positive("clone1.example/a/b.html"));
  EXPECT_FALSE(t.positive("clone10.example/a.html"));
  EXPECT_TRUE(t.positive("site.example/docs/x.html"));
  EXPECT_FALSE(t.positive("site.example/docsx.html"));
  try {
    TruthPrefixes::parse("# nothing\n\n", "t.txt");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "truth file 't.txt' names no positive URL prefix");
  }
}

// A file of only whitespace named one prefix, " ", that no page starts with.
TEST(TruthPrefixes, WhitespaceIsNotAPrefix) {
  for (const char* text : {" ", "\t\n  \r\n", " \n\f\v\n", "  # indented comment\n \t \n"}) {
    EXPECT_THROW(TruthPrefixes::parse(text, "t.txt"), UsageError) << '"' << text << '"';
  }
  const auto t = TruthPrefixes::parse("  clone1.example \t\r\n", "t.txt");
  EXPECT_EQ(t.size(), 1u);
  EXPECT_TRUE(t.positive("clone1.example/a.html"));
}

}  // namespace
}  // namespace crd::compare
