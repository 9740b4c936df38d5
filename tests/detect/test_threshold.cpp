// Threshold and badness-mode parsing: auto vs fixed, resolve, rejected values.
#include <gtest/gtest.h>

#include "crd/base/error.hpp"
#include "crd/detect/threshold.hpp"

namespace crd::detect {
namespace {

TEST(Threshold, AutoResolvesToMeanPlusSigma) {
  const Threshold t = Threshold::parse("auto", "page-threshold");
  EXPECT_TRUE(t.automatic);
  EXPECT_EQ(t.resolve(0.25, 0.125), 0.375);
  EXPECT_EQ(t.to_string(), "auto");
  EXPECT_TRUE(Threshold{}.automatic) << "default is auto";
}

TEST(Threshold, FixedIgnoresStatistics) {
  const Threshold t = Threshold::parse("0.6", "page-threshold");
  EXPECT_FALSE(t.automatic);
  EXPECT_EQ(t.value, 0.6);
  EXPECT_EQ(t.resolve(0.1, 0.2), 0.6);
  EXPECT_EQ(t.to_string(), "0.6");
  EXPECT_EQ(Threshold::parse("0", "x").value, 0.0);
  EXPECT_EQ(Threshold::parse("1e-3", "x").value, 1e-3);
  EXPECT_EQ(Threshold::parse("2", "x").value, 2.0);
}

TEST(Threshold, RejectsBadValuesNamingTheOption) {
  for (const char* bad : {"-0.1", "abc", "0.5x", "nan", "inf", "AUTO"}) {
    try {
      Threshold::parse(bad, "neighborhood-threshold");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--neighborhood-threshold"), std::string::npos) << e.what();
    }
  }
}

// An empty value (`--page-threshold=` or an empty line in a config file) is an error, not the
// fixed threshold 0 that would flag every page with any labeled chunk.
TEST(Threshold, EmptyValueIsRejected) {
  EXPECT_THROW(Threshold::parse("", "page-threshold"), UsageError);
}

TEST(Badness, ParseAndName) {
  EXPECT_EQ(parse_enum<BadnessMode>("pages"), BadnessMode::Pages);
  EXPECT_EQ(parse_enum<BadnessMode>("chunks"), BadnessMode::Chunks);
  EXPECT_STREQ(name_of(BadnessMode::Pages), "pages");
  EXPECT_STREQ(name_of(BadnessMode::Chunks), "chunks");
  EXPECT_FALSE(parse_enum<BadnessMode>("page").has_value());
  EXPECT_EQ(enum_choices<BadnessMode>(), "'pages' or 'chunks'");
}

}  // namespace
}  // namespace crd::detect
