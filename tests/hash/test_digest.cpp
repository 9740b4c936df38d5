// Digest hex form, prefix and owner mapping.
#include <gtest/gtest.h>

#include <cctype>

#include "crd/hash/digest.hpp"
#include "crd/hash/sha1.hpp"

namespace {

TEST(Digest, HexRoundTrip) {
  for (std::string_view s : {"", "abc", "chunk", "another chunk"}) {
    const crd::Digest d = crd::sha1(s);
    const std::string hex = crd::to_hex(d);
    ASSERT_EQ(hex.size(), 40U);
    const auto back = crd::digest_from_hex(hex);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, d);
  }
}

TEST(Digest, FromHexAcceptsUppercaseAndRejectsJunk) {
  const std::string lower = "a9993e364706816aba3e25717850c26c9cd0d89d";
  std::string upper = lower;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_TRUE(crd::digest_from_hex(upper).has_value());
  EXPECT_EQ(crd::to_hex(*crd::digest_from_hex(upper)), lower);
  EXPECT_EQ(crd::digest_from_hex(upper)->bytes[0], 0xa9);
  EXPECT_FALSE(crd::digest_from_hex(lower.substr(1)).has_value());
  EXPECT_FALSE(crd::digest_from_hex(lower + "0").has_value());
  EXPECT_FALSE(crd::digest_from_hex("g" + lower.substr(1)).has_value());
  EXPECT_FALSE(crd::digest_from_hex(lower.substr(0, 39) + " ").has_value());
  EXPECT_FALSE(crd::digest_from_hex("").has_value());
}

TEST(Digest, PrefixIsBigEndianLeadingBytes) {
  const crd::Digest d = *crd::digest_from_hex("0102030405060708090a0b0c0d0e0f1011121314");
  EXPECT_EQ(d.prefix64(), 0x0102030405060708ULL);
}

TEST(Digest, OwnerIsInRangeAndMonotoneInPrefix) {
  const crd::Digest lo = *crd::digest_from_hex("0000000000000000000000000000000000000000");
  const crd::Digest hi = *crd::digest_from_hex("ffffffffffffffffffffffffffffffffffffffff");
  for (int n : {1, 2, 3, 7, 64}) {
    EXPECT_EQ(crd::owner_of(lo, n), 0);
    EXPECT_EQ(crd::owner_of(hi, n), n - 1);
    for (std::string_view s : {"a", "b", "c", "d"}) {
      const int o = crd::owner_of(crd::sha1(s), n);
      EXPECT_GE(o, 0);
      EXPECT_LT(o, n);
    }
  }
}

}  // namespace
