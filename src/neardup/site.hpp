// A page's site, as Henzinger 2006, §1 defines it: the host when it has at most one dot (two levels),
// else the host minus everything up to its first dot ("www.cs.berkeley.edu" → "cs.berkeley.edu").
#pragma once

#include <string_view>

namespace crd::neardup {

// key: a url::url_key ("host[:port]/path"); the port is not part of the site.
std::string_view site_of(std::string_view key);

bool same_site(std::string_view key_a, std::string_view key_b);

}  // namespace crd::neardup
