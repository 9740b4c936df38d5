// The server a page lies on, for --foreign-sourced (Najork 2012, §3.3): its registrable domain by
// the public suffix list (libpsl with Debian's publicsuffix list, e.g. "www.cam.ac.uk" →
// "cam.ac.uk"), or its host. A host that has no registrable domain (an IPv4 or bracketed IPv6
// address, a bare public suffix, a name without a dot) is its own server.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "crd/quilts/params.hpp"

namespace crd::quilts {

// key: a url::url_key ("host[:port]/path"); the port is not part of the server.
std::string server_of(std::string_view key, Foreign foreign);

// 64-bit id of server_of (0 for Foreign::Off: every page on one server, no restriction).
std::uint64_t server_id(std::string_view key, Foreign foreign);

}  // namespace crd::quilts
