// URL keys: "host/path…" with everything that does not name the content dropped (paper §4.4).
#include "crd/url/url_key.hpp"

#include <algorithm>
#include <cctype>

namespace crd::url {

namespace {

char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool is_scheme_char(char c) noexcept {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
}

// Length of a leading "scheme:" (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"),
// including the colon; 0 when there is none.
std::size_t scheme_length(std::string_view url) noexcept {
  if (url.empty() || std::isalpha(static_cast<unsigned char>(url[0])) == 0) return 0;
  for (std::size_t i = 1; i < url.size(); ++i) {
    if (url[i] == ':') return i + 1;
    if (!is_scheme_char(url[i])) return 0;
  }
  return 0;
}

// The default port of the scheme, or "" when it has none we know.
std::string_view default_port(std::string_view scheme) noexcept {
  if (scheme == "http") return "80";
  if (scheme == "https") return "443";
  return "";
}

// Appends the path components of `path` (already free of query and fragment) to `out`, each
// preceded by '/'; empty and "." components are dropped.
void append_path(std::string_view path, std::string& out) {
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t end = path.find('/', pos);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view comp = path.substr(pos, end - pos);
    if (!comp.empty() && comp != ".") {
      out += '/';
      out += comp;
    }
    pos = end + 1;
  }
}

// Lowercased host with the port kept unless it is the scheme's default; IPv6 brackets kept.
// nullopt when the authority names no host.
std::optional<std::string> key_host(std::string_view authority, std::string_view scheme) {
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);  // userinfo
  }
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority[0] == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && rest[0] == ':') port = rest.substr(1);
  } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty() || host == "[]") return std::nullopt;
  std::string out;
  out.reserve(authority.size());
  for (char c : host) out += ascii_lower(c);
  // An empty port ("host:") means the default, as does the scheme's own default port.
  if (!port.empty() && port != default_port(scheme)) {
    out += ':';
    out += port;
  }
  return out;
}

}  // namespace

std::optional<std::string> url_key(std::string_view url) {
  // Query and fragment never name different content for our purposes: cut them first.
  if (const std::size_t cut = url.find_first_of("?#"); cut != std::string_view::npos) {
    url = url.substr(0, cut);
  }
  const std::size_t slen = scheme_length(url);
  const bool has_authority = slen > 0 && url.substr(slen).starts_with("//");
  if (!has_authority) {
    // A directory-walk path (or a scheme without authority, e.g. "mailto:"): no host to lower.
    if (slen > 0) return std::nullopt;
    std::string out;
    append_path(url, out);
    if (out.empty()) return std::nullopt;
    return out.substr(1);  // the first component acts as the host
  }
  std::string scheme;
  for (char c : url.substr(0, slen - 1)) scheme += ascii_lower(c);
  const std::string_view rest = url.substr(slen + 2);
  const std::size_t path_start = std::min(rest.find('/'), rest.size());
  std::optional<std::string> key = key_host(rest.substr(0, path_start), scheme);
  if (!key) return std::nullopt;
  append_path(rest.substr(path_start), *key);
  return key;
}

std::string path_as_url(std::string_view path) {
  const std::size_t scheme_colon = scheme_length(path);  // 0, or just past the colon url_key would cut at
  std::string out;
  out.reserve(path.size() + 8);
  for (std::size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '%') {
      out += "%25";
    } else if (c == '?') {
      out += "%3F";
    } else if (c == '#') {
      out += "%23";
    } else if (c == ':' && i + 1 == scheme_colon) {
      out += "%3A";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string_view> key_components(std::string_view key) {
  std::vector<std::string_view> parts;
  std::size_t pos = 0;
  while (pos <= key.size()) {
    std::size_t end = key.find('/', pos);
    if (end == std::string_view::npos) end = key.size();
    if (end > pos) parts.push_back(key.substr(pos, end - pos));
    pos = end + 1;
  }
  return parts;
}

}  // namespace crd::url
