// Defaults that depend on another option's value (dependent_defaults.hpp).
#include "dependent_defaults.hpp"

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
  const auto stop = vm.find("host-stop-pages");
  if (kind == "winnow" && stop != vm.end() && stop->second.defaulted()) {
    stop->second.value() = Count{kWinnowHostStopPages};
    applied.push_back({"host-stop-pages", std::to_string(kWinnowHostStopPages),
                       "the default with --chunker winnow (docs/winnow.md)"});
  }
  return applied;
}

}  // namespace crd::cli
