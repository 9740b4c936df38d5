// Defaults that depend on another option's value (dependent_defaults.hpp).
#include "dependent_defaults.hpp"

namespace crd::cli {

namespace po = boost::program_options;

bool option_given(const po::variables_map& vm, std::string_view option) {
  const auto it = vm.find(std::string(option));
  return it != vm.end() && !it->second.defaulted();
}

std::vector<DependentDefault> apply_dependent_defaults(po::variables_map& vm) {
  std::vector<DependentDefault> applied;
  const auto chunker = vm.find("chunker");
  const auto threshold = vm.find("page-threshold");
  if (chunker == vm.end() || threshold == vm.end() || !threshold->second.defaulted()) return applied;
  const std::string kind = chunker->second.as<std::string>();
  if (kind != "winnow" && kind != "winnow+scan") return applied;
  // The variable stays marked as defaulted (option_given is false); its notifier parses the new value.
  threshold->second.value() = std::string("binomial");
  applied.push_back({"page-threshold", "binomial", "the default with --chunker " + kind + " (docs/winnow.md)"});
  return applied;
}

}  // namespace crd::cli
