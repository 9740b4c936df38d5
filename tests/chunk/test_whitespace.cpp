// Whitespace normalization: the public function and every kernel against the byte-wise one.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "crd/chunk/chunker.hpp"
#include "whitespace.hpp"

namespace {

using crd::chunk::normalize_whitespace;
namespace detail = crd::chunk::detail;

std::string norm(std::string_view s) {
  std::string out;
  normalize_whitespace(s, out);
  return out;
}

TEST(NormalizeWhitespace, CollapsesAllFiveAsciiWhitespaceBytesAndTrims) {
  EXPECT_EQ(norm("a \t\n\f\r b"), "a b");
  EXPECT_EQ(norm("\t\n\f\r a"), "a");
  EXPECT_EQ(norm("a\r\n"), "a");
  EXPECT_EQ(norm("a\tb\nc\fd\re f"), "a b c d e f");
  EXPECT_EQ(norm(""), "");
  EXPECT_EQ(norm(" \t\r\n\f "), "");
}

TEST(NormalizeWhitespace, OtherBytesUntouched) {
  EXPECT_EQ(norm("a\vb"), "a\vb");                      // vertical tab is not HTML whitespace
  EXPECT_EQ(norm("a\xc2\xa0 b"), "a\xc2\xa0 b");        // U+00A0 no-break space
  EXPECT_EQ(norm("a\xe3\x80\x80\xe3\x80\x80" "b"), "a\xe3\x80\x80\xe3\x80\x80" "b");  // U+3000
  EXPECT_EQ(norm(std::string("a\0  b", 5)), std::string("a\0 b", 4));
  EXPECT_EQ(norm("\x85x\xa0"), "\x85x\xa0");
}

TEST(NormalizeWhitespace, RunsAcrossVectorLanes) {
  // Runs that start in one 8- or 32-byte block and end in the next.
  std::string in(31, 'x');
  in += std::string(40, ' ');
  in += "y";
  EXPECT_EQ(norm(in), std::string(31, 'x') + " y");
  EXPECT_EQ(norm(std::string(100, ' ') + "z" + std::string(100, '\n')), "z");
}

std::string random_text(std::mt19937& rng, std::size_t n) {
  static const char kAlphabet[] = {' ', ' ', ' ', '\t', '\n', '\f', '\r', '\v', 'a', 'b', '<',
                                   '>', '\0', '\x80', '\xa0', '\xff', '!', '~', '\x1f', '\x21'};
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 1);
  std::string s(n, ' ');
  for (char& c : s) c = kAlphabet[pick(rng)];
  return s;
}

TEST(NormalizeKernels, AgreeWithBytewiseOnRandomInput) {
  std::vector<std::pair<const char*, detail::NormalizeFn>> kernels = {
      {"swar", &detail::normalize_swar}, {"dispatch", &detail::normalize_run}};
  if (detail::NormalizeFn avx2 = detail::normalize_avx2_kernel()) kernels.emplace_back("avx2", avx2);
  std::mt19937 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    const std::string in = random_text(rng, static_cast<std::size_t>(round % 300));
    std::string want(in.size() + detail::kNormalizeSlack, '\0');
    want.resize(detail::normalize_bytewise(in.data(), in.size(), want.data()));
    for (const auto& [name, fn] : kernels) {
      std::string got(in.size() + detail::kNormalizeSlack, '\0');
      got.resize(fn(in.data(), in.size(), got.data()));
      ASSERT_EQ(got, want) << name << " round " << round;
    }
  }
}

TEST(NormalizeKernels, OutputIsNormalForm) {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    const std::string out = norm(random_text(rng, 200));
    ASSERT_EQ(out.find_first_of("\t\n\f\r"), std::string::npos);
    ASSERT_EQ(out.find("  "), std::string::npos);
    if (!out.empty()) {
      ASSERT_NE(out.front(), ' ');
      ASSERT_NE(out.back(), ' ');
    }
    ASSERT_EQ(norm(out), out);  // idempotent
  }
}

}  // namespace
