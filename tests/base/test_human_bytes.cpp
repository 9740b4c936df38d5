// human_bytes: the one formatter of sizes in crd's messages.
#include <gtest/gtest.h>

#include <limits>

#include "crd/base/human_bytes.hpp"

namespace {

using crd::human_bytes;

TEST(HumanBytes, PicksTheLargestUnitReached) {
  EXPECT_EQ(human_bytes(0), "0 B");
  EXPECT_EQ(human_bytes(1023), "1023 B");
  EXPECT_EQ(human_bytes(1024), "1 KiB");
  EXPECT_EQ(human_bytes(1536), "1.50 KiB");
  EXPECT_EQ(human_bytes(4u << 20), "4 MiB");
  EXPECT_EQ(human_bytes((1u << 30) - 1), "1023.99 MiB");  // truncated, never rounded up to 1024
  EXPECT_EQ(human_bytes(std::uint64_t{3} << 29), "1.50 GiB");
  EXPECT_EQ(human_bytes(std::uint64_t{5} << 40), "5 TiB");
  EXPECT_EQ(human_bytes(std::numeric_limits<std::uint64_t>::max()), "15.99 EiB");
}

// A budget under 1 GiB read "0.00 GiB".
TEST(HumanBytes, BudgetsUnderAGibibyteAreNotZero) {
  EXPECT_EQ(human_bytes(4u << 20), "4 MiB");
  EXPECT_EQ(human_bytes(20000000), "19.07 MiB");
  EXPECT_EQ(human_bytes(500), "500 B");
}

}  // namespace
