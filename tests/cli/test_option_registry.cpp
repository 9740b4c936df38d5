// Issue 32: the option registry and the command table. Every option is defined once and read by
// some command; every command binds its options (a kind that does not fit its field is a
// logic_error); a config file may hold any crd option: the command's own are read, other
// commands' are ignored and listed, unknown names are refused with the closest match.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "command_parse.hpp"
#include "commands.hpp"
#include "crd/base/error.hpp"
#include "option_registry.hpp"

namespace crd::cli {
namespace {

TEST(OptionRegistry, EachNameOnceAndReadBySomeCommand) {
  std::set<std::string> names;
  std::set<std::string> read;
  for (const Command& c : commands()) {
    Settings s;
    const OptionBinder options = bind_options(c, s);  // throws logic_error on a bad binding
    for (const auto& b : options.bound()) read.insert(b.spec->name);
  }
  for (const OptionSpec& spec : option_registry()) {
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
    EXPECT_TRUE(read.count(spec.name)) << "--" << spec.name << " is read by no command";
    EXPECT_NE(std::string(spec.help), "") << spec.name;
  }
}

TEST(OptionRegistry, ClosestNames) {
  EXPECT_EQ(closest_option("grm-words"), "gram-words");
  EXPECT_EQ(closest_option("chunk-treshold"), "chunk-threshold");
  EXPECT_EQ(closest_option("labels"), "labels");
  EXPECT_EQ(closest_option("completely-unrelated-name"), "");
}

TEST(OptionRegistry, RangesAreParsedOnceForEveryOptionOfTheKind) {
  EXPECT_EQ(option_spec("sample-bytes").range.text(ValueKind::Count), "1..65536");
  EXPECT_EQ(option_spec("shuffle-buffer").range.text(ValueKind::Size), "≥ 4 KiB");
  EXPECT_EQ(option_spec("max-neighborhood-depth").range.text(ValueKind::Integer), "≥ -1");
  EXPECT_THROW(option_spec("no-such-option"), std::logic_error);
}

TEST(OptionRegistry, SignedRangesKeepTheirUpperEnd) {
  constexpr ValueRange r{-5, 10};
  EXPECT_TRUE(r.contains(-5));
  EXPECT_TRUE(r.contains(-1));
  EXPECT_TRUE(r.contains(10));
  EXPECT_FALSE(r.contains(11));
  EXPECT_FALSE(r.contains(-6));
  EXPECT_EQ(r.text(ValueKind::Integer), "-5..10");
}

struct Config {
  std::string path = testing::TempDir() + "crd_registry_test.ini";
  explicit Config(const std::string& text) { std::ofstream(path) << text; }
  ~Config() { std::remove(path.c_str()); }
};

ParsedCommand parse(const char* command, Settings& s, std::vector<std::string> args) {
  const OptionBinder options = bind_options(*find_command(command), s);
  args.insert(args.begin(), command);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parse_command(static_cast<int>(argv.size()), argv.data(), options, nullptr);
}

// The case: one file for discover (chunk-threshold, gram-words), neardup (method),
// detect (page-threshold) and quilts (min-sources).
TEST(ConfigFile, ReadsItsOwnOptionsAndListsOtherCommandsOnes) {
  Config c("gram-words = 7\nchunk-threshold = 3\nmethod = minhash\npage-threshold = 0.3\nmin-sources = 2\n");
  Settings s;
  const auto parsed = parse("discover", s, {"--config", c.path, "-o", "x.h5", "--chunk-threshold", "9"});
  EXPECT_EQ(s.discover.chunk_threshold, 9u);  // the command line wins
  EXPECT_EQ(s.common.scan.chunking.gram_words, 7u);
  EXPECT_EQ(parsed.ignored, (std::vector<std::string>{"method", "page-threshold", "min-sources"}));
  Settings q;
  const auto quilts = parse("quilts", q, {"--config", c.path, "-o", "x.h5"});
  EXPECT_EQ(q.quilts.k, 7u);
  EXPECT_EQ(q.quilts.c, 2u);
  EXPECT_EQ(quilts.ignored, (std::vector<std::string>{"chunk-threshold", "method", "page-threshold"}));
}

TEST(ConfigFile, RefusesUnknownNamesNamingTheClosest) {
  Config c("chunk-threshold = 3\ngrm-words = 5\n");
  Settings s;
  try {
    parse("discover", s, {"--config", c.path, "-o", "x.h5"});
    FAIL() << "grm-words was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown option 'grm-words' (did you mean --gram-words?)"), std::string::npos)
        << e.what();
  }
}

TEST(ConfigFile, NamesNoInputs) {
  Config c("input = /etc/passwd\n");
  Settings s;
  EXPECT_THROW(parse("discover", s, {"--config", c.path, "-o", "x.h5"}), UsageError);
}

TEST(ConfigFile, ValuesOfOwnOptionsAreCheckedAsOnTheCommandLine) {
  Config c("sample-bytes = 0\n");
  Settings s;
  EXPECT_THROW(parse("discover", s, {"--config", c.path, "-o", "x.h5"}), UsageError);
  Settings other;  // neardup does not read sample-bytes: ignored, not checked
  EXPECT_NO_THROW(parse("neardup", other, {"--config", c.path, "-o", "x.h5"}));
}

}  // namespace
}  // namespace crd::cli
