// Defaults that depend on another option's value (dependent_defaults.hpp).
#include "dependent_defaults.hpp"

#include "crd/detect/host_stop.hpp"
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
  const std::string why = "the default with --chunker " + kind + " (docs/winnow.md)";
  // Each variable stays marked as defaulted (option_given is false); its notifier reads the new value.
  if (const auto threshold = vm.find("page-threshold"); threshold != vm.end() && threshold->second.defaulted()) {
    threshold->second.value() = std::string("binomial");
    applied.push_back({"page-threshold", "binomial", why});
  }
  // Grams a host repeats on many pages are its boilerplate (docs/winnow.md, "A chance rate measured
  // from the crawl"): on the development background, 214 false pages became 20 at this value.
  if (const auto stop = vm.find("host-stop-pages"); stop != vm.end() && stop->second.defaulted()) {
    stop->second.value() = Count{detect::kWinnowHostStopPages};
    applied.push_back({"host-stop-pages", std::to_string(detect::kWinnowHostStopPages), why});
  }
  return applied;
}

}  // namespace crd::cli
