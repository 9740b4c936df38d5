// StopList::load and LabelRules: hex lines, literal chunks normalized then hashed, comments, CRLF.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>

#include "crd/chunk/chunker.hpp"
#include "crd/base/error.hpp"
#include "crd/discover/label_rules.hpp"
#include "crd/hash/sha1.hpp"
#include "support/test_paths.hpp"

namespace crd::discover {
namespace {

std::string write_file(const std::string& name, const std::string& content) {
  static const std::string dir = crd::testing::make_temp_dir("stop_list");
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(StopList, HexLiteralCommentsBlankAndCrlf) {
  const Digest hex_lower = sha1("some chunk");
  const Digest hex_upper = sha1("other chunk");
  std::string upper = to_hex(hex_upper);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string content = "# stop list\n" + to_hex(hex_lower) + "\n" + upper + "\r\n" +
                              "\n"
                              "\r\n"
                              "  Hello \t  world  \r\n"
                              "# " + to_hex(sha1("commented")) + "\n" +
                              "<p></p>\n"
                              "last line without newline";
  const StopList list = StopList::load(write_file("mixed.txt", content));
  EXPECT_TRUE(list.contains(hex_lower));
  EXPECT_TRUE(list.contains(hex_upper)) << "hex digits in either case";
  EXPECT_TRUE(list.contains(sha1("Hello world"))) << "literal lines are normalized like chunks, CR dropped";
  EXPECT_FALSE(list.contains(sha1("  Hello \t  world  ")));
  EXPECT_FALSE(list.contains(sha1("commented")));
  EXPECT_TRUE(list.contains(sha1("<p></p>")));
  EXPECT_TRUE(list.contains(sha1("last line without newline")));
  EXPECT_EQ(list.size(), 5u);
}

TEST(StopList, LiteralMatchesNormalizeWhitespace) {
  const std::string raw = "\ta  b\fc \x0b d";  // \v is not chunk whitespace
  std::string normalized;
  chunk::normalize_whitespace(raw, normalized);
  const StopList list = StopList::load(write_file("ws.txt", raw + "\n"));
  EXPECT_TRUE(list.contains(sha1(normalized)));
  EXPECT_EQ(list.size(), 1u);
}

TEST(StopList, WhitespaceOnlyLineAddsNothing) {
  const StopList list = StopList::load(write_file("blank.txt", "   \t \n\r\n#x\n"));
  EXPECT_EQ(list.size(), 0u);
}

TEST(StopList, NotQuiteHexIsLiteral) {
  const std::string short_hex(39, 'a');
  const std::string bad_hex = std::string(39, 'a') + "g";
  const StopList list = StopList::load(write_file("almost.txt", short_hex + "\n" + bad_hex + "\n"));
  EXPECT_TRUE(list.contains(sha1(short_hex)));
  EXPECT_TRUE(list.contains(sha1(bad_hex)));
  EXPECT_EQ(list.size(), 2u);
}

TEST(StopList, MissingFileIsUsageError) {
  EXPECT_THROW(StopList::load("/nonexistent/dir/stop.txt"), UsageError);
}

// Reads are bounded: /dev/zero is one endless line (it grew to gigabytes), a directory read as an
// empty list.
TEST(StopList, EndlessLineAndDirectoryAreUsageErrors) {
  try {
    StopList::load("/dev/zero");
    ADD_FAILURE() << "/dev/zero was accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "stop list '/dev/zero': a line longer than 16 MiB");
  }
  const std::string dir = crd::testing::make_temp_dir("stop_list_dir");
  try {
    StopList::load(dir);
    ADD_FAILURE() << "a directory was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "stop list '" + dir + "' is a directory");
  }
}

// The table is sorted and deduplicated: order and repeats in the file do not matter, and a line
// split across the loader's 1 MiB read blocks is read whole.
TEST(StopList, DuplicatesUnorderedAndLinesAcrossReadBlocks) {
  std::string content;
  std::vector<Digest> want;
  for (int i = 0; i < 40000; ++i) {  // 40,000 × 41 bytes: lines straddle the 1 MiB blocks
    want.push_back(sha1("chunk " + std::to_string(i)));
    content += to_hex(want.back()) + "\n";
  }
  content += to_hex(want[7]) + "\n" + to_hex(want[0]) + "\n";  // repeats
  const std::string long_literal(3u << 20, 'z');                   // a 3 MiB literal line spans blocks
  content += long_literal + "\n";
  const StopList list = StopList::load(write_file("many.txt", content));
  EXPECT_EQ(list.size(), want.size() + 1);
  for (const Digest& d : want) ASSERT_TRUE(list.contains(d));
  EXPECT_TRUE(list.contains(sha1(long_literal)));
  EXPECT_FALSE(list.contains(sha1("chunk 40000")));
  EXPECT_LE(list.memory_bytes(), (content.size() / 41 + 1) * sizeof(Digest) + 65537 * sizeof(std::uint32_t))
      << "sized from the file, never doubled";
  EXPECT_EQ(StopList::from_digests({want[2], want[1], want[2]}).size(), 2u);
}

TEST(LabelRules, StrictThresholdMinLengthAndStop) {
  const Digest s = sha1("s");
  const Digest x = sha1("x");
  const StopList stop = StopList::from_digests({s});
  const LabelRules rules{3, 5, &stop};
  EXPECT_FALSE(rules.labeled(x, 3, 10)) << "count == threshold is not labeled";
  EXPECT_TRUE(rules.labeled(x, 4, 10));
  EXPECT_TRUE(rules.labeled(x, 4, 5)) << "length == min_length is kept";
  EXPECT_FALSE(rules.labeled(x, 4, 4));
  EXPECT_FALSE(rules.labeled(s, 100, 100));
  EXPECT_TRUE(rules.is_stop(s, 100));
  const LabelRules no_stop{0, 0, nullptr};
  EXPECT_TRUE(no_stop.labeled(s, 1, 0));
  EXPECT_FALSE(no_stop.labeled(s, 0, 0));
}

}  // namespace
}  // namespace crd::discover
