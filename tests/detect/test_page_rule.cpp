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

// binomial:fit: the floor is at the R resolved over the pages, not at the fixed rate it starts from.
TEST(PageRule, FittedRuleFloorsAtTheResolvedRate) {
  const Threshold fit = Threshold::parse("binomial:fit", "page-threshold");
  PageRule r(fit, 0.2, 1);
  EXPECT_EQ(r.threshold(), 0.2);
  // 25 of 100 is above R = 0.2 but well within Binomial(100, 0.2)'s chance (P ≈ 0.13).
  EXPECT_EQ(r.judge({100, 25}).reason, PageReason::BelowChanceFloor);
  ChanceFloor floor(0.2, Threshold::kDefaultChanceAlpha);
  EXPECT_TRUE(r.judge({100, floor.min_labeled(100)}).flagged);
  EXPECT_FALSE(r.judge({100, floor.min_labeled(100) - 1}).flagged);
}

// The combined rule (--chunker winnow+scan): each part at its own floor, either one flags.
TEST(PageRule, CombinedFlagsWhenEitherPartPasses) {
  const Threshold rule = Threshold::parse("binomial", "page-threshold");
  PageRule combined(rule, 0.01, 1, true);
  PageRule single(rule, 0.01, 1);
  // 3 exact chunks all labeled, 40 grams none: the totals (3 of 43) are chance, the exact part is not.
  const PageCounts cut{43, 3, 3, 3};
  EXPECT_TRUE(combined.judge(cut).flagged);
  EXPECT_FALSE(single.judge(cut).flagged);
  // 3 of 43 labeled again, but spread: 1 of 3 exact, 2 of 40 grams — neither part passes.
  EXPECT_FALSE(combined.judge({43, 3, 3, 1}).flagged);
  // The gram part alone: 12 of 20 grams labeled, no exact chunk labeled.
  EXPECT_TRUE(combined.judge({26, 12, 6, 0}).flagged);
  EXPECT_EQ(combined.judge(cut).containment, 3.0 / 43) << "the page's containment over both parts";
}

TEST(PageRule, ReasonsHaveNames) {
  EXPECT_EQ(std::string(name_of(PageReason::BelowChanceFloor)), "below_chance_floor");
  EXPECT_EQ(std::string(name_of(PageReason::Flagged)), "flagged");
}

}  // namespace
}  // namespace crd::detect
