// Defaults that depend on another option's value. They are applied after parsing (command line,
// then config file) and before the values reach their fields, so the effective configuration
// (/config), the checkpoint identity and the run all see the same value.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crd::cli {

struct DependentDefault {
  std::string option;  // the option whose default was replaced
  std::string value;   // its value now
  std::string reason;  // why, for the comment line in /config
};

// --host-stop-pages under --chunker winnow when not given: the stop grams per host, relative to the
// labeled site (docs/winnow.md, "Relative to the labeled site"), cut the development part's false
// pages 1.1–6.6× for at most 0.1 points of recall on the three labeled sets.
inline constexpr std::uint64_t kWinnowHostStopPages = 20;

// --cross-host-stop-hosts under --chunker winnow when not given (its cut keeps its own default,
// 0.02): on the development part it cut false pages on all three labeled sets (10 → 5, 123 → 43,
// 59 → 54) for at most 0.1 points of recall (docs/winnow.md, "Phrasing shared across hosts").
inline constexpr std::uint64_t kWinnowCrossHostStopHosts = 4;

// With --chunker winnow (or winnow+scan), a --page-threshold left at its default becomes `binomial` (docs/winnow.md,
// "The page threshold"): mean + σ over winnowed grams misses diluted copies, and the binomial rule
// is the one the chunker was validated with. With --chunker winnow (not winnow+scan, whose gram part
// was not measured with them), a --host-stop-pages left at its default becomes kWinnowHostStopPages
// and a --cross-host-stop-hosts left at its default kWinnowCrossHostStopHosts. Returns the defaults
// replaced.
std::vector<DependentDefault> apply_dependent_defaults(boost::program_options::variables_map& vm);

// True when the user gave `option` (command line or config file), false when it took a default or
// is not an option of the command.
bool option_given(const boost::program_options::variables_map& vm, std::string_view option);

}  // namespace crd::cli
