// URL keying (paper §4.4) and recursion-error rules.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crd::url {

// "host/path…": scheme, userinfo, default port (80/443), query and fragment dropped, host
// lowercased, empty and "." path components and a trailing slash dropped; IPv6 brackets and
// other ports (host:port) kept; percent-encoding and ".." left as they are. A URL without a
// scheme (a path from a directory walk) is keyed as is, its first component acting as the host.
// nullopt if no host can be found (e.g. "mailto:x", "file:///p", "http:///p", "").
std::optional<std::string> url_key(std::string_view url);

// A file path as the URL its document gets: '%', '?' and '#' percent-encoded (%25, %3F, %23),
// and the ':' that would make the first component read as a scheme ("c:x/a" → "c%3Ax/a"), so
// url_key keeps the whole path and two different paths never share a key. Nothing else changes.
std::string path_as_url(std::string_view path);

// Components of a key: host first, then path components.
std::vector<std::string_view> key_components(std::string_view key);

// Path components exclude the host. Defaults: max_depth from the tech report's appendix;
// max_repeat measured on the Debian documentation corpus (docs/cleaning.md). 0 turns a rule off.
struct RecursionRules {
  int max_depth = 96;   // more path components than this → recursion error
  int max_repeat = 3;   // a path component occurring more than this many times → recursion error
};

enum class RecursionVerdict { Ok, TooDeep, RepeatedComponent };

RecursionVerdict check_recursion(std::string_view key, const RecursionRules& rules);

}  // namespace crd::url
