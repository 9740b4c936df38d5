// libFuzzer target: url_key, key_components and check_recursion, checked against their contracts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "crd/url/url_key.hpp"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_url: invariant broken: %s\n", what);
    std::abort();
  }
}

// The recursion rules restated from their documentation, for comparison.
crd::url::RecursionVerdict expected_verdict(std::string_view key, const crd::url::RecursionRules& rules) {
  auto parts = crd::url::key_components(key);
  if (parts.empty()) return crd::url::RecursionVerdict::Ok;
  parts.erase(parts.begin());
  if (rules.max_depth > 0 && parts.size() > static_cast<std::size_t>(rules.max_depth)) {
    return crd::url::RecursionVerdict::TooDeep;
  }
  std::map<std::string_view, int> seen;
  for (auto p : parts) {
    if (rules.max_repeat > 0 && ++seen[p] > rules.max_repeat) return crd::url::RecursionVerdict::RepeatedComponent;
  }
  return crd::url::RecursionVerdict::Ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // First byte: small recursion limits so both verdicts are reachable with short inputs.
  const crd::url::RecursionRules small{data[0] % 8, (data[0] >> 3) % 5};
  const std::string_view url(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::optional<std::string> key = crd::url::url_key(url);
  if (!key) return 0;
  check(!key->empty(), "empty key");
  check(key->front() != '/' && key->back() != '/', "key starts or ends with '/'");
  check(key->find("//") == std::string::npos, "key holds an empty component");
  check(key->find_first_of("?#") == std::string::npos, "key keeps a query or fragment");
  const auto parts = crd::url::key_components(*key);
  check(!parts.empty(), "key without components");
  std::string rejoined;
  for (auto p : parts) {
    // The rule covers path components; a host spelled "." ("http://./a") is kept as it is.
    check(p != "." || rejoined.empty(), "key keeps a '.' path component");
    rejoined += rejoined.empty() ? "" : "/";
    rejoined += p;
  }
  check(rejoined == *key, "key_components does not rebuild the key");
  // A key with no scheme-like colon reads as a directory-walk path: keying it again is a no-op.
  // (A host spelled "." is the exception: as a path it is dropped, leaving no key.)
  if (key->find(':') == std::string::npos && parts.front() != ".") {
    check(crd::url::url_key(*key) == *key, "url_key is not idempotent on a key");
  }
  for (const auto& rules : {crd::url::RecursionRules{}, small}) {
    check(crd::url::check_recursion(*key, rules) == expected_verdict(*key, rules),
          "check_recursion differs from its documented rules");
  }
  return 0;
}
