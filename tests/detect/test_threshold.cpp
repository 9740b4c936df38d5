// Threshold and badness-mode parsing: auto vs fixed, resolve, rejected values.
#include <gtest/gtest.h>

#include <cmath>

#include "crd/base/error.hpp"
#include "crd/detect/threshold.hpp"

namespace crd::detect {
namespace {

TEST(Threshold, AutoResolvesToMeanPlusSigma) {
  const Threshold t = Threshold::parse("auto", "page-threshold");
  EXPECT_TRUE(t.automatic);
  const ResolvedThreshold r = t.resolve({0.25, 0.125, 0.9, 0.5});
  EXPECT_EQ(r.value, 0.375);
  EXPECT_FALSE(r.clamped);
  EXPECT_EQ(t.to_string(), "auto");
  EXPECT_TRUE(Threshold{}.automatic) << "default is auto";
}

TEST(Threshold, FixedIgnoresStatistics) {
  const Threshold t = Threshold::parse("0.6", "page-threshold");
  EXPECT_FALSE(t.automatic);
  EXPECT_EQ(t.value, 0.6);
  EXPECT_EQ(t.resolve({0.1, 0.2, 0, 0}).value, 0.6);
  EXPECT_EQ(Threshold::parse("1", "x").resolve({0.9, 0.9, 1, 0}).value, 1.0) << "fixed: never clamped";
  EXPECT_FALSE(Threshold::parse("1", "x").resolve({0.9, 0.9, 1, 0}).clamped);
  EXPECT_EQ(t.to_string(), "0.6");
  EXPECT_EQ(Threshold::parse("0", "x").value, 0.0);
  EXPECT_EQ(Threshold::parse("1e-3", "x").value, 1e-3);
}

// Scores lie in [0, 1]: a fixed threshold above 1 could never flag anything, and hexadecimal
// ("0x10", which std::stod reads as 16) is no one's threshold. Both were accepted.
TEST(Threshold, NumbersAboveOneAndHexadecimalAreRefused) {
  for (const char* bad : {"2", "1.5", "1.0000001", "0x10", "0x0.8", "1e1", "binomial:0x0.1", "robust:0x3"}) {
    try {
      Threshold::parse(bad, "page-threshold");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--page-threshold"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(Threshold::parse("1", "page-threshold").value, 1.0);
  EXPECT_EQ(Threshold::parse("1.0e0", "page-threshold").value, 1.0);
}

// page_threshold_rule recorded 6 significant digits ("0.123457"): the rule is recorded exactly,
// and as before when 6 digits are exact.
TEST(Threshold, RuleIsRecordedExactly) {
  EXPECT_EQ(Threshold::parse("0.1234567", "x").to_string(), "0.1234567");
  EXPECT_EQ(Threshold::parse("0.6", "x").to_string(), "0.6");
  EXPECT_EQ(Threshold::parse("binomial:0.0123456789:0.0001", "x").to_string(), "binomial:0.0123456789:0.0001");
  EXPECT_EQ(Threshold::parse("binomial", "x").to_string(), "binomial:0.01:0.0001");
  for (const char* v : {"0.1234567", "0.3333333333333333", "1e-07"})
    EXPECT_EQ(Threshold::parse(Threshold::parse(v, "x").to_string(), "x").value, Threshold::parse(v, "x").value) << v;
}

TEST(Threshold, RobustIsMedianPlusKScaledMad) {
  const Threshold t = Threshold::parse("robust", "page-threshold");
  EXPECT_TRUE(t.automatic);
  EXPECT_TRUE(t.robust);
  EXPECT_EQ(t.value, 3.0) << "K defaults to 3";
  EXPECT_EQ(t.to_string(), "robust:3");
  EXPECT_DOUBLE_EQ(t.resolve({0.9, 0.3, 0.1, 0.02}).value, 0.1 + 3 * 1.4826 * 0.02);
  const Threshold k = Threshold::parse("robust:0.5", "page-threshold");
  EXPECT_EQ(k.value, 0.5);
  EXPECT_EQ(k.to_string(), "robust:0.5");
  EXPECT_EQ(Threshold::parse(k.to_string(), "x").value, 0.5) << "to_string is read back by parse";
}

// Scores lie in [0, 1] and flags need score > threshold: an automatic threshold ≥ 1 would flag
// nothing, so it is clamped to the largest double below 1.
TEST(Threshold, AutomaticThresholdsAtOrAboveOneAreClamped) {
  EXPECT_EQ(Threshold::kClampedThreshold, std::nextafter(1.0, 0.0));
  EXPECT_GT(1.0, Threshold::kClampedThreshold);
  EXPECT_GT(Threshold::kClampedThreshold, 1.0 - 1.0 / 4294967296.0) << "above every score below 1";
  for (const Population p : {Population{0.9, 0.182, 0, 0}, Population{1, 0, 1, 0}}) {
    const ResolvedThreshold r = Threshold{}.resolve(p);
    EXPECT_EQ(r.value, Threshold::kClampedThreshold);
    EXPECT_TRUE(r.clamped);
  }
  const ResolvedThreshold r = Threshold::parse("robust", "x").resolve({0.5, 0.1, 1.0, 0.0});
  EXPECT_EQ(r.value, Threshold::kClampedThreshold);
  EXPECT_TRUE(r.clamped);
  EXPECT_FALSE(Threshold{}.resolve({0.5, 0.4999, 0, 0}).clamped);
}

TEST(Threshold, RejectsBadValuesNamingTheOption) {
  for (const char* bad : {"-0.1", "abc", "0.5x", "nan", "inf", "AUTO", "robust:", "robust:0", "robust:-1",
                          "robust:x", "robust3", "ROBUST"}) {
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
