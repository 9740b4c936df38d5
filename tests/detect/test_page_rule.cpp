// The page rule (page_rule.hpp): its tests in order, each verdict's reason, and the binomial floor.
#include <gtest/gtest.h>

#include "crd/detect/page_rule.hpp"

namespace crd::detect {
namespace {

Threshold fixed(double value) { return {false, value}; }

TEST(PageRule, StrictlyAboveTheThresholdAndAtLeastMinLabeled) {
  PageRule at_half(fixed(0.5), 0.5, 1);
  EXPECT_FALSE(at_half.judge({2, 1}).flagged);  // equal to the threshold: not above
  EXPECT_EQ(at_half.judge({2, 1}).reason, PageReason::BelowThreshold);
  EXPECT_EQ(at_half.judge({2, 1}).containment, 0.5);
  PageRule below(fixed(0.4999), 0.4999, 1);
  EXPECT_TRUE(below.judge({2, 1}).flagged);
  EXPECT_EQ(below.judge({2, 1}).reason, PageReason::Flagged);
  PageRule two(fixed(0.4999), 0.4999, 2);
  EXPECT_FALSE(two.judge({2, 1}).flagged);
  EXPECT_EQ(two.judge({2, 1}).reason, PageReason::TooFewLabeled);
  PageRule zero(fixed(0), 0, 0);
  EXPECT_FALSE(zero.judge({0, 0}).flagged);  // a page without chunks never is
  PageRule zero_two(fixed(0), 0, 2);
  EXPECT_TRUE(zero_two.judge({3, 2}).flagged);
}

// binomial:0.01: the threshold is R, and a page must also beat the chance floor.
TEST(PageRule, BinomialNeedsMoreLabeledChunksThanChanceExplains) {
  const Threshold rule = Threshold::parse("binomial:0.01:0.0001", "page-threshold");
  PageRule r = PageRule::unresolved(rule, 1);
  EXPECT_EQ(r.threshold(), 0.01);
  ChanceFloor floor(0.01, 0.0001);
  const std::uint64_t need = floor.min_labeled(1000);
  ASSERT_GT(need, 10u);  // above the threshold's 1000 · R = 10
  EXPECT_EQ(r.judge({1000, need - 1}).reason, PageReason::BelowChanceFloor);
  EXPECT_FALSE(r.judge({1000, need - 1}).flagged);
  EXPECT_TRUE(r.judge({1000, need}).flagged);
  EXPECT_EQ(r.judge({1000, 5}).reason, PageReason::BelowThreshold);
}

TEST(PageRule, ReasonsHaveNames) {
  EXPECT_EQ(std::string(name_of(PageReason::BelowChanceFloor)), "below_chance_floor");
  EXPECT_EQ(std::string(name_of(PageReason::Flagged)), "flagged");
}

}  // namespace
}  // namespace crd::detect
