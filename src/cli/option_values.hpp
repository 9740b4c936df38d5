// The kinds of values crd's options take, each parsed by one function: a count (a whole number
// ≥ 0), a byte size ("64M"), a threshold ("auto" or a number) and a name of an enum's value. Boost's
// own parsing of unsigned options accepts "-5" and wraps it to 2^64 - 5; these refuse a sign,
// spaces, trailing text and overflow instead. Every option's default is the initial value of the
// field it fills (the struct's member initializer), read back here, so it is written once.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "crd/base/enum_names.hpp"
#include "crd/base/error.hpp"
#include "crd/detect/threshold.hpp"

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

// The whole numbers an option accepts, both ends included. --help shows it in place of "arg"
// ("--minvalues 1..4096"); a value outside it is a usage error at parse time.
struct CountRange {
  std::uint64_t least = 0;
  std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  bool contains(std::uint64_t v) const { return v >= least && v <= most; }
  std::string text() const;  // "1..4096"
};
inline constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();

// Options stored into `target` after parsing, defaulting to its value now.
po::typed_value<Count>* count_value(std::uint64_t& target);
// A count in `range` (which must fit the target's type); `option` names it in the error.
po::typed_value<Count>* count_value(std::uint32_t& target, const char* option, CountRange range);
po::typed_value<Count>* count_value(std::uint64_t& target, const char* option, CountRange range);
// The usage error for a value outside `range`, for options whose values are checked later.
[[noreturn]] void refuse_out_of_range(const char* option, std::string_view value, CountRange range);
po::typed_value<ByteSize>* size_value(std::uint64_t& target);
// A whole number least..most; `option` names it in the error.
std::optional<std::uint32_t> parse_u32(std::string_view text);
po::typed_value<std::string>* u32_value(std::uint32_t& target, const char* option, std::uint32_t least,
                                        std::uint32_t most = std::numeric_limits<std::uint32_t>::max());
// "auto" or a number ≥ 0; `option` names it in the error.
po::typed_value<std::string>* threshold_value(detect::Threshold& target, const char* option);

// One of the names in enum_names(E).
template <class E>
po::typed_value<std::string>* choice_value(E& target, const char* option) {
  return po::value<std::string>()->default_value(name_of(target))->notifier([&target, option](const std::string& v) {
    const std::optional<E> value = parse_enum<E>(v);
    if (!value) throw UsageError(std::string("option --") + option + ": expected " + enum_choices<E>() + ", got '" + v + "'");
    target = *value;
  });
}

}  // namespace crd::cli
