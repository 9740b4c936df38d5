// URL keying (paper §4.4) and recursion-error rules.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crd::url {

// "host/path…": scheme, userinfo, default port (80/443), query and fragment dropped, host
// lowercased, empty path components and a trailing slash dropped. A URL without a scheme (a path
// from a directory walk) is keyed as is, its first component acting as the host.
// nullopt if no host can be found.
std::optional<std::string> url_key(std::string_view url);

// Components of a key: host first, then path components.
std::vector<std::string_view> key_components(std::string_view key);

struct RecursionRules {
  int max_depth = 96;   // more path components than this → recursion error
  int max_repeat = 0;   // a component occurring more than this many times → recursion error (0 = off)
};

enum class RecursionVerdict { Ok, TooDeep, RepeatedComponent };

RecursionVerdict check_recursion(std::string_view key, const RecursionRules& rules);

}  // namespace crd::url
