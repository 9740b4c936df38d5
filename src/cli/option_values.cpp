// Number parsing for option values (option_values.hpp).
#include "option_values.hpp"

#include <limits>

namespace crd::cli {

std::optional<std::uint64_t> parse_count(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  const auto number = parse_count(text.substr(0, digits));
  if (!number) return std::nullopt;
  std::string_view suffix = text.substr(digits);
  if (suffix.ends_with('B') || suffix.ends_with('b')) suffix.remove_suffix(1);
  if (suffix.size() == 2 && suffix.ends_with('i')) suffix.remove_suffix(1);  // "Ki", "Mi": not a bare "i"
  int shift = 0;
  if (suffix.empty()) {
    shift = 0;
  } else if (suffix == "K" || suffix == "k") {
    shift = 10;
  } else if (suffix == "M" || suffix == "m") {
    shift = 20;
  } else if (suffix == "G" || suffix == "g") {
    shift = 30;
  } else if (suffix == "T" || suffix == "t") {
    shift = 40;
  } else {
    return std::nullopt;
  }
  if (*number > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
  return *number << shift;
}

namespace {

// Boost fills in the option's name (from the command line or the config file) for this error.
[[noreturn]] void refuse(const std::string& text, const char* expected) {
  throw po::error_with_option_name("option '%canonical_option%': '" + text + "' is not " + expected);
}

}  // namespace

void validate(boost::any& out, const std::vector<std::string>& values, Count*, int) {
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  const auto value = parse_count(text);
  if (!value) refuse(text, "a whole number ≥ 0");
  out = Count{*value};
}

void validate(boost::any& out, const std::vector<std::string>& values, ByteSize*, int) {
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  const auto value = parse_bytes(text);
  if (!value) refuse(text, "a size ≥ 0 (e.g. 4096, 512K, 64M, 2G)");
  out = ByteSize{*value, text};
}

std::ostream& operator<<(std::ostream& out, const Count& c) { return out << c.value; }
std::ostream& operator<<(std::ostream& out, const ByteSize& b) { return out << b.text; }

ByteSize ByteSize::of(std::uint64_t value) {
  int shift = 0;
  while (shift < 40 && value != 0 && value % (std::uint64_t{1} << (shift + 10)) == 0) shift += 10;
  return {value, std::to_string(value >> shift) + (shift == 0 ? "" : std::string(1, "KMGT"[shift / 10 - 1]))};
}

}  // namespace crd::cli
