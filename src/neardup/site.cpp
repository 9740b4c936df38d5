// Henzinger 2006's site rule.
#include "site.hpp"

#include <algorithm>

namespace crd::neardup {

std::string_view site_of(std::string_view key) {
  std::string_view host = key.substr(0, key.find('/'));
  if (host.empty() || host.front() != '[') host = host.substr(0, host.find(':'));  // an IPv6 host keeps its colons
  if (std::count(host.begin(), host.end(), '.') <= 1) return host;
  return host.substr(host.find('.') + 1);
}

bool same_site(std::string_view key_a, std::string_view key_b) { return site_of(key_a) == site_of(key_b); }

}  // namespace crd::neardup
