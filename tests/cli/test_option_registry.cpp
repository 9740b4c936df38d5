// The option registry and the command table. Every option is defined once and read by
// some command; every command binds its options (a kind that does not fit its field is a
// logic_error); a config file may hold any crd option: the command's own are read, other
// commands' are ignored and listed, unknown names are refused with the closest match.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
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

// One name, one meaning: every command that reads an option fills the same field of Settings
// (--gram-words, --page-threshold, --min-labeled, --labels, --show and --top were bound to a
// different struct per command).
TEST(OptionRegistry, EachNameFillsOneFieldWhicheverCommandReadsIt) {
  std::map<std::string, std::set<std::ptrdiff_t>> offsets;
  for (const Command& c : commands()) {
    Settings s;
    const OptionBinder options = bind_options(c, s);
    for (const auto& b : options.bound())
      offsets[b.spec->name].insert(static_cast<const char*>(b.target) - reinterpret_cast<const char*>(&s));
  }
  for (const auto& [name, fields] : offsets) EXPECT_EQ(fields.size(), 1u) << "--" << name;
  for (const char* shared : {"gram-words", "page-threshold", "min-labeled", "labels", "show", "top", "output"})
    EXPECT_TRUE(offsets.count(shared)) << shared;
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

// A config shared by a pipeline: one file for discover (chunk-threshold, gram-words), neardup (method),
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
  EXPECT_EQ(q.common.scan.chunking.gram_words, 7u);  // quilts' k (quilts_command.cpp)
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

// Each command still reads a shared option where it did, with its own default.
TEST(OptionRegistry, SharedOptionsReachEveryCommandThatReadsThem) {
  Settings check;
  parse("check", check, {"--labels", "L.h5", "--show", "2", "page.html"});
  EXPECT_FALSE(check.detect.detect.page_threshold.automatic);  // check's default: fixed 0
  EXPECT_EQ(check.detect.detect.page_threshold.value, 0.0);
  EXPECT_EQ(check.show, 2u);
  EXPECT_EQ(check.labels, std::vector<std::string>{"L.h5"});
  Settings detect;
  parse("detect", detect, {"--labels", "L.h5", "-o", "x.h5", "--min-labeled", "3", "corpus"});
  EXPECT_TRUE(detect.detect.detect.page_threshold.automatic);
  EXPECT_EQ(detect.detect.detect.min_labeled, 3u);
  EXPECT_EQ(detect.labels, std::vector<std::string>{"L.h5"});
  Settings report;
  parse("report", report, {"-o", "r.html", "x.h5"});
  EXPECT_EQ(report.inspect.top, report::ReportOptions{}.top);
  Settings inspect;
  parse("inspect", inspect, {"x.h5"});
  EXPECT_EQ(inspect.inspect.top, 10u);
  Settings quilts;
  parse("quilts", quilts, {"--gram-words", "7", "-o", "x.h5", "corpus"});
  EXPECT_EQ(quilts.common.scan.chunking.gram_words, 7u);
}

// One name, one meaning: compare's sentence bucket has its own name; --max-bucket, which neardup
// reads as its supershingle bucket, stays compare's older spelling of it.
TEST(OptionAlias, CompareReadsTheOldSpellingAsTheNewName) {
  Settings a;
  const auto by_name = parse("compare", a, {"--max-sentence-bucket", "9", "doc.html"});
  EXPECT_EQ(a.compare.max_bucket, 9u);
  Settings b;
  const auto by_alias = parse("compare", b, {"--max-bucket", "7", "doc.html"});
  EXPECT_EQ(b.compare.max_bucket, 7u);
  EXPECT_NE(by_alias.config_ini.find("max-sentence-bucket = 7\n"), std::string::npos) << by_alias.config_ini;
  EXPECT_EQ(by_alias.config_ini.find("max-bucket ="), std::string::npos) << by_alias.config_ini;
  Settings c;
  parse("compare", c, {"--max-bucket=5", "doc.html"});
  EXPECT_EQ(c.compare.max_bucket, 5u);
  Config file("max-bucket = 11\n");
  Settings d;
  const auto from_file = parse("compare", d, {"--config", file.path, "doc.html"});
  EXPECT_EQ(d.compare.max_bucket, 11u);
  EXPECT_TRUE(from_file.ignored.empty());
  Settings n;  // neardup's --max-bucket is its own option, its meaning unchanged
  parse("neardup", n, {"--max-bucket", "3", "-o", "x.h5"});
  EXPECT_EQ(n.neardup.rules.max_bucket, 3u);
  Settings q;
  EXPECT_THROW(parse("neardup", q, {"--max-sentence-bucket", "3", "-o", "x.h5"}), UsageError);
  EXPECT_EQ(option_spec("max-sentence-bucket").kind, ValueKind::Count);
}

TEST(OptionAlias, AnAliasNeedsItsOptionBound) {
  Settings s;
  OptionBinder b;
  EXPECT_THROW(b.alias("max-bucket", "max-sentence-bucket"), std::logic_error);
  b.add("max-sentence-bucket", s.compare.max_bucket);
  b.alias("max-bucket", "max-sentence-bucket");
  EXPECT_EQ(b.canonical("max-bucket"), "max-sentence-bucket");
  EXPECT_EQ(b.canonical("json"), "json");
}

}  // namespace
}  // namespace crd::cli
