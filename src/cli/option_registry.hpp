// Every crd option, defined once: its name, the kind of value it takes and the values it accepts,
// the group it is listed under, whether it changes results or only how the run goes, and its help.
// Commands bind options to the fields they fill by name (option_binder.hpp); each default is the
// initializer of that field, read when the option is bound, so it is not written here
// (LevelDB's options.h keeps every option with its default and sanitizing in one place likewise).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace crd::cli {

enum class ValueKind {
  Flag,          // no value: given or not
  Count,         // a whole number ≥ 0 (parse_count), in range
  Size,          // a byte size: a count with an optional K, M, G or T (parse_bytes), in range
  Integer,       // a whole number that may be negative, in range
  Number,        // a finite decimal number ≥ range.least
  Fraction,      // digits with an optional point, 0..1
  Threshold,     // auto | robust[:K] | a number ≥ 0 (detect::Threshold)
  Choice,        // one of an enum's names (enum_names)
  Text,          // any text (a directory written, a sweep written as A:B or a,b,c)
  Path,          // a file the job reads: -o must not name it
  PathList,      // files the job reads (repeatable)
  NameList,      // comma-separated names, lower-cased, at least one
  CountList,     // comma-separated counts, each in range, at most kMaxListValues
  FractionList,  // comma-separated fractions, at most kMaxListValues
};

// Changes results: part of a checkpoint's job identity (pipeline::job_fingerprint). Run-only:
// where the result goes and how the run goes (memory, rounds, progress), never what it holds.
enum class Effect { ChangesResults, RunOnly };

// The values an option accepts, both ends included; `most` at its maximum means no upper end.
struct ValueRange {
  std::int64_t least = 0;
  std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  bool contains(std::int64_t v) const { return v >= least && (v < 0 || static_cast<std::uint64_t>(v) <= most); }
  bool contains_count(std::uint64_t v) const {
    return (least <= 0 || v >= static_cast<std::uint64_t>(least)) && v <= most;
  }
  bool bounded() const { return least != 0 || most != std::numeric_limits<std::uint64_t>::max(); }
  std::string text(ValueKind kind) const;  // "1..4096", "≥ 1", "≥ 4K"
};

// A sweep list holds at most this many values: a sweep runs every combination for every page.
inline constexpr std::size_t kMaxListValues = 16;

struct OptionSpec {
  const char* name;  // the long name: --name on the command line, name = value in a config
  char short_name;   // -o, -k; 0 = none
  ValueKind kind;
  ValueRange range;   // Count, Size, Integer, CountList; Number: range.least only
  const char* group;  // the heading it is listed under (registry order is listing order)
  Effect effect;
  const char* value_name;  // in --help, docs/options.md and the man page: FILE, N, DIR…; "" = the kind's
  const char* help;
};

std::span<const OptionSpec> option_registry();

// nullptr when no crd option has this long name.
const OptionSpec* find_option(std::string_view name);
// The spec of a name the program binds (std::logic_error for a name not in the registry: a bug).
const OptionSpec& option_spec(std::string_view name);
// The crd option whose name is closest to `name` (edit distance at most a third of its length,
// at least 2), or "" when none is close: for "did you mean --gram-words?".
std::string closest_option(std::string_view name);
// The groups in listing order.
std::span<const char* const> option_groups();

}  // namespace crd::cli
