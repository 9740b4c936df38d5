// SHA-256 (OpenSSL) for the report: the Content-Security-Policy source hashes of its inline script
// and style, and its run id.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace crd::report {

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::string sha256_hex(std::string_view data);
// Standard base64 (with padding) of the digest, as CSP's 'sha256-…' sources expect.
std::string sha256_base64(std::string_view data);

}  // namespace crd::report
