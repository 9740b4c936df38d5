// Option numbers: every count and size option refuses a sign, spaces, trailing text and overflow
// (Boost alone wrapped "-5" to 18446744073709551611), and names the option in its error.
#include <gtest/gtest.h>

#include <limits>

#include "command_parse.hpp"
#include "commands.hpp"
#include "crd/base/error.hpp"
#include "crd/chunk/chunking_identity.hpp"
#include "option_values.hpp"

namespace crd::cli {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

TEST(ParseCount, AcceptsDecimalDigitsUpTo2To64Minus1) {
  EXPECT_EQ(parse_count("0"), 0u);
  EXPECT_EQ(parse_count("10"), 10u);
  EXPECT_EQ(parse_count("007"), 7u);
  EXPECT_EQ(parse_count("18446744073709551615"), kMax);
}

TEST(ParseCount, RefusesSignsSpacesTextAndOverflow) {
  for (const char* bad : {"-5", "-1", "+5", " 5", "5 ", "5x", "", "1e3", "0x10", "1.5", "18446744073709551616",
                          "99999999999999999999999"})
    EXPECT_FALSE(parse_count(bad).has_value()) << bad;
}

TEST(ParseBytes, AcceptsSuffixesInPowersOf1024) {
  EXPECT_EQ(parse_bytes("4096"), 4096u);
  EXPECT_EQ(parse_bytes("512K"), 512u << 10);
  EXPECT_EQ(parse_bytes("64M"), 64u << 20);
  EXPECT_EQ(parse_bytes("64MiB"), 64u << 20);
  EXPECT_EQ(parse_bytes("2g"), 2ull << 30);
  EXPECT_EQ(parse_bytes("1TB"), 1ull << 40);
  EXPECT_EQ(parse_bytes("0"), 0u);
  EXPECT_EQ(parse_bytes("16777215T"), 16777215ull << 40);
}

TEST(ParseBytes, RefusesNegativeMalformedAndOverflowingSizes) {
  for (const char* bad :
       {"-1", "-1G", "+1G", " 1G", "1 G", "G", "", "1X", "1i", "1.5G", "16777216T", "18446744073709551616", "1GG"})
    EXPECT_FALSE(parse_bytes(bad).has_value()) << bad;
}

// The options of every command, parsed as the commands parse them: a negative or malformed
// number is a usage error naming the option.
// crd run's options (every corpus, chunking, discovery, detection and run-control option).
struct Parsed {
  Settings s;
  pipeline::CommonOptions& common = s.common;
  pipeline::DiscoverOptions& discover = s.discover;
  pipeline::DetectPipelineOptions& detect = s.detect;
};

ParsedCommand parse(Parsed& p, std::vector<std::string> args) {
  const OptionBinder options = bind_options(*find_command("run"), p.s);
  args.insert(args.begin(), "crd-test");
  args.push_back("-o");
  args.push_back("out.h5");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parse_command(static_cast<int>(argv.size()), argv.data(), options, nullptr);
}

std::string usage_error(std::vector<std::string> args) {
  Parsed p;
  try {
    parse(p, std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Options, EveryNumberOptionRefusesNegativeAndMalformedValues) {
  for (const char* option :
       {"--chunk-threshold", "--file-threshold", "--min-chunk-length", "--min-labeled", "--provenance-samples",
        "--sample-bytes", "--max-record-bytes", "--shuffle-buffer", "--memory"}) {
    for (const char* value : {"-5", "-1G", "5x", "1e3", "", "99999999999999999999"}) {
      const std::string error = usage_error({option, value});
      EXPECT_NE(error.find(std::string(option)), std::string::npos) << option << " " << value << ": '" << error << "'";
      EXPECT_NE(error.find("'" + std::string(value) + "'"), std::string::npos) << error;
    }
  }
  EXPECT_EQ(usage_error({"--chunk-threshold", "-5"}), "option '--chunk-threshold': '-5' is not a whole number ≥ 0");
  EXPECT_EQ(usage_error({"--memory", "-1G"}), "option '--memory': '-1G' is not a size ≥ 0 (e.g. 4096, 512K, 64M, 2G)");
  EXPECT_NE(usage_error({"--max-neighborhood-depth", "-2"}).find("max-neighborhood-depth"), std::string::npos);
  EXPECT_NE(usage_error({"--progress-interval", "nan"}).find("progress-interval"), std::string::npos);
  EXPECT_NE(usage_error({"--progress-interval", "-1"}).find("progress-interval"), std::string::npos);
}

TEST(Options, ValidNumbersLandInTheOptions) {
  Parsed p;
  parse(p,
        {"--chunk-threshold", "18446744073709551615", "--min-chunk-length", "0", "--memory", "8G", "--max-record-bytes",
         "1M", "--shuffle-buffer", "4K", "--max-neighborhood-depth", "-1", "--sample-bytes", "65536"});
  EXPECT_EQ(p.discover.chunk_threshold, kMax);
  EXPECT_EQ(p.discover.file_threshold, 10u);  // the default
  EXPECT_EQ(p.discover.min_chunk_length, 0u);
  EXPECT_EQ(p.common.memory_budget, 8ull << 30);
  EXPECT_EQ(p.common.scan.read.max_record_bytes, 1u << 20);
  EXPECT_EQ(p.common.round_bytes, 4096u);
  EXPECT_EQ(p.detect.detect.max_neighborhood_depth, -1);
  EXPECT_EQ(p.common.scan.sample_bytes, 65536u);
}

// --chunker winnow's K and W land in the chunker options, are bounded, and are part of the chunking
// identity (labels and counts of another K or W are other items).
TEST(Options, WinnowGramWordsAndWindowLandInTheChunkingIdentity) {
  Parsed p;
  parse(p, {"--chunker", "winnow", "--gram-words", "7", "--window", "9"});
  EXPECT_EQ(p.common.scan.chunker, chunk::ChunkerKind::Winnow);
  EXPECT_EQ(p.common.scan.chunking.gram_words, 7u);
  EXPECT_EQ(p.common.scan.chunking.window, 9u);
  EXPECT_EQ(chunk::chunking_identity(p.common.scan.chunker, p.common.scan.chunking),
            "chunker=winnow tags=p,div boundary-match=tag normalization=1 gram-words=7 window=9");
  Parsed other;
  parse(other, {"--chunker", "winnow", "--gram-words", "7", "--window", "10"});
  EXPECT_NE(chunk::chunking_identity(other.common.scan.chunker, other.common.scan.chunking),
            chunk::chunking_identity(p.common.scan.chunker, p.common.scan.chunking));
  // winnow+scan's grams depend on K and W too, and its exact chunks on the tags: both are kept.
  Parsed combined;
  parse(combined, {"--chunker", "winnow+scan", "--gram-words", "7", "--window", "9"});
  const std::string combined_identity =
      chunk::chunking_identity(combined.common.scan.chunker, combined.common.scan.chunking);
  EXPECT_EQ(combined_identity,
            "chunker=winnow+scan tags=p,div boundary-match=tag normalization=1 gram-words=7 window=9");
  EXPECT_EQ(chunk::chunking_used(combined_identity), combined_identity);
  // The other chunkers' identities are those written before winnow existed.
  Parsed scan;
  parse(scan, {"--window", "3"});
  EXPECT_EQ(chunk::chunking_identity(scan.common.scan.chunker, scan.common.scan.chunking),
            "chunker=scan tags=p,div boundary-match=tag normalization=1");
  EXPECT_EQ(usage_error({"--window", "0"}), "option --window: 0 is not in 1..1000");
  EXPECT_EQ(usage_error({"--gram-words", "1001"}), "option --gram-words: 1001 is not in 1..1000");
}

TEST(Options, EffectiveConfigKeepsSizesAsWritten) {
  Parsed p;
  const auto parsed = parse(p, {"--memory", "8G", "--chunk-threshold", "7"});
  EXPECT_NE(parsed.config_ini.find("memory = 8G\n"), std::string::npos) << parsed.config_ini;
  EXPECT_NE(parsed.config_ini.find("chunk-threshold = 7\n"), std::string::npos) << parsed.config_ini;
  EXPECT_NE(parsed.config_ini.find("max-record-bytes = 64M\n"), std::string::npos) << parsed.config_ini;
  // The checkpoint identity keeps what changes results only (the registry's effect).
  EXPECT_NE(parsed.results_config.find("chunk-threshold = 7\n"), std::string::npos) << parsed.results_config;
  for (const char* run_only : {"memory =", "output =", "shuffle-buffer =", "progress-interval =", "reader-thread ="})
    EXPECT_EQ(parsed.results_config.find(run_only), std::string::npos) << run_only << "\n" << parsed.results_config;
}

}  // namespace
}  // namespace crd::cli
