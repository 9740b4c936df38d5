// Recursion-error rules: a crawler loop shows up as a very deep path or a repeating component.
#include <algorithm>

#include "crd/url/url_key.hpp"

namespace crd::url {

RecursionVerdict check_recursion(std::string_view key, const RecursionRules& rules) {
  std::vector<std::string_view> parts = key_components(key);
  if (parts.empty()) return RecursionVerdict::Ok;
  // The host is not part of the path: a site that mirrors itself under its own name
  // ("pkg/usr/share/doc/pkg/…") is not a loop.
  parts.erase(parts.begin());
  if (rules.max_depth > 0 && parts.size() > static_cast<std::size_t>(rules.max_depth)) {
    return RecursionVerdict::TooDeep;
  }
  if (rules.max_repeat > 0 && parts.size() > static_cast<std::size_t>(rules.max_repeat)) {
    // Sorting puts equal components side by side; paths are at most max_depth long, so this
    // stays cheap and needs no hash table.
    std::sort(parts.begin(), parts.end());
    std::size_t run = 1;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      run = parts[i] == parts[i - 1] ? run + 1 : 1;
      if (run > static_cast<std::size_t>(rules.max_repeat)) return RecursionVerdict::RepeatedComponent;
    }
  }
  return RecursionVerdict::Ok;
}

}  // namespace crd::url
