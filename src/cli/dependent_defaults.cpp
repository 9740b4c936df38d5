// Defaults that depend on another option's value (dependent_defaults.hpp).
#include "dependent_defaults.hpp"

#include <array>

#include "option_values.hpp"

namespace crd::cli {

namespace po = boost::program_options;

bool option_given(const po::variables_map& vm, std::string_view option) {
  const auto it = vm.find(std::string(option));
  return it != vm.end() && !it->second.defaulted();
}

std::vector<DependentDefault> apply_dependent_defaults(po::variables_map& vm) {
  std::vector<DependentDefault> applied;
  const auto chunker = vm.find("chunker");
  if (chunker == vm.end()) return applied;
  const std::string kind = chunker->second.as<std::string>();
  if (kind != "winnow" && kind != "winnow+scan") return applied;
  // The variables stay marked as defaulted (option_given is false); their notifiers parse the new values.
  const auto threshold = vm.find("page-threshold");
  if (threshold != vm.end() && threshold->second.defaulted()) {
    threshold->second.value() = std::string("binomial");
    applied.push_back({"page-threshold", "binomial", "the default with --chunker " + kind + " (docs/winnow.md)"});
  }
  if (kind != "winnow") return applied;
  // The stop grams of both kinds are --chunker winnow's defaults only (docs/winnow.md, "Using it").
  struct WinnowDefault {
    const char* option;
    std::uint64_t value;
  };
  static constexpr std::array<WinnowDefault, 2> kStops{
      {{"host-stop-pages", kWinnowHostStopPages}, {"cross-host-stop-hosts", kWinnowCrossHostStopHosts}}};
  for (const auto& d : kStops) {
    const auto it = vm.find(d.option);
    if (it == vm.end() || !it->second.defaulted()) continue;
    it->second.value() = Count{d.value};
    applied.push_back({d.option, std::to_string(d.value), "the default with --chunker winnow (docs/winnow.md)"});
  }
  return applied;
}

}  // namespace crd::cli
