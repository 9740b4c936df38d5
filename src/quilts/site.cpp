// Servers by libpsl. psl_latest() loads the newest of libpsl's built-in list and the system's
// (Debian: /usr/share/publicsuffix), once per process.
#include "crd/quilts/site.hpp"

#include <arpa/inet.h>
#include <libpsl.h>

#include <stdexcept>

#include "crd/text/fingerprint.hpp"

namespace crd::quilts {
namespace {

const psl_ctx_t* suffix_list() {
  static const psl_ctx_t* const ctx = [] {
    const psl_ctx_t* c = psl_latest(nullptr);
    if (c == nullptr) c = psl_builtin();
    if (c == nullptr) throw std::runtime_error("no public suffix list (Debian: apt-get install publicsuffix libpsl5)");
    return c;
  }();
  return ctx;
}

std::string_view host_of(std::string_view key) {
  std::string_view host = key.substr(0, key.find('/'));
  if (!host.empty() && host.front() == '[') {  // IPv6: the colons inside the brackets are the address's
    const auto close = host.find(']');
    return close == std::string_view::npos ? host : host.substr(0, close + 1);
  }
  return host.substr(0, host.find(':'));
}

// libpsl takes "192.168.0.1" for a name under the suffix "1" (giving "0.1"): addresses are hosts.
bool is_address(const std::string& host) {
  if (!host.empty() && host.front() == '[') return true;
  in_addr v4{};
  return inet_pton(AF_INET, host.c_str(), &v4) == 1;
}

}  // namespace

std::string server_of(std::string_view key, Foreign foreign) {
  const std::string host(host_of(key));
  if (foreign != Foreign::Domain || is_address(host)) return host;
  const char* domain = psl_registrable_domain(suffix_list(), host.c_str());
  return domain != nullptr ? std::string(domain) : host;
}

std::uint64_t server_id(std::string_view key, Foreign foreign) {
  if (foreign == Foreign::Off) return 0;
  return text::term_token(server_of(key, foreign));
}

}  // namespace crd::quilts
