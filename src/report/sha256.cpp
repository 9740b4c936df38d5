// SHA-256 through OpenSSL's EVP interface.
#include "sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace crd::report {

std::array<std::uint8_t, 32> sha256(std::string_view data) {
  std::array<std::uint8_t, 32> digest{};
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &len, EVP_sha256(), nullptr) != 1 || len != digest.size())
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return digest;
}

std::string sha256_hex(std::string_view data) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : sha256(data)) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string sha256_base64(std::string_view data) {
  const auto digest = sha256(data);
  unsigned char encoded[48];  // 4 * ceil(32 / 3) + NUL
  const int n = EVP_EncodeBlock(encoded, digest.data(), static_cast<int>(digest.size()));
  return std::string(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(n));
}

}  // namespace crd::report
