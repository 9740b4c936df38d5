// SHA-1 against the FIPS 180 / RFC 3174 vectors, and reuse of one hasher across inputs.
#include <gtest/gtest.h>

#include <string>

#include "crd/hash/sha1.hpp"

namespace {

std::string hex_sha1(std::string_view s) { return crd::to_hex(crd::sha1(s)); }

TEST(Sha1, KnownVectors) {
  EXPECT_EQ(hex_sha1(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(hex_sha1("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex_sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(hex_sha1(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  EXPECT_EQ(hex_sha1("The quick brown fox jumps over the lazy dog"),
            "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12");
}

TEST(Sha1, OneObjectHashesManyInputsIndependently) {
  crd::Sha1 h;
  const crd::Digest abc = h("abc");
  const crd::Digest empty = h("");
  EXPECT_EQ(crd::to_hex(abc), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(crd::to_hex(empty), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  // No state leaks from one call into the next.
  EXPECT_EQ(h("abc"), abc);
  crd::Sha1 other;
  for (int n : {1, 55, 56, 63, 64, 65, 127, 128, 4097}) {
    const std::string s(static_cast<std::size_t>(n), 'x');
    EXPECT_EQ(h(s), other(s)) << n;
    EXPECT_EQ(h(s), crd::sha1(s)) << n;
  }
  EXPECT_NE(h("abc"), h("abd"));
}

TEST(Sha1, BinaryBytesIncludingNul) {
  const std::string with_nul("a\0b", 3);
  EXPECT_NE(crd::sha1(with_nul), crd::sha1("a"));
  EXPECT_EQ(crd::sha1(with_nul), crd::sha1(std::string_view("a\0b", 3)));
}

}  // namespace
