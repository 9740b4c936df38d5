// The two number syntaxes of crd's options: a count (a whole number ≥ 0) and a byte size ("64M").
// Boost's own parsing of unsigned options accepts "-5" and wraps it to 2^64 - 5; these refuse a
// sign, spaces, trailing text and overflow instead. Each kind of option value is parsed in one
// place (option_binder.cpp) on top of these.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace crd::cli {

namespace po = boost::program_options;

// Decimal digits only, at most 2^64 - 1; nullopt otherwise ("-5", "+5", " 5", "5x", "", "1e3").
std::optional<std::uint64_t> parse_count(std::string_view text);
// A count followed by an optional K, M, G or T (powers of 1024, either case) and an optional
// "B" or "iB"; nullopt when malformed, negative or above 2^64 - 1 bytes.
std::optional<std::uint64_t> parse_bytes(std::string_view text);

// Option value types: po::value<Count>() / po::value<ByteSize>() parse through the functions
// above (Boost finds validate() below by argument-dependent lookup) and name the option in
// their error message.
struct Count {
  std::uint64_t value = 0;
};
struct ByteSize {
  std::uint64_t value = 0;
  std::string text;  // as written, e.g. "64M": the effective configuration keeps it
  static ByteSize of(std::uint64_t value);  // text with the largest exact suffix: 64M, 1536K, 0
};

void validate(boost::any& out, const std::vector<std::string>& values, Count*, int);
void validate(boost::any& out, const std::vector<std::string>& values, ByteSize*, int);
std::ostream& operator<<(std::ostream& out, const Count& c);     // default values in --help
std::ostream& operator<<(std::ostream& out, const ByteSize& b);

}  // namespace crd::cli
