// SHA-1 through OpenSSL's EVP interface (uses SHA-NI where the CPU has it).
#pragma once

#include <string_view>

#include "crd/hash/digest.hpp"

namespace crd {

// Thread-compatible: keep one per thread. Reuses one EVP context so hashing many small chunks
// costs no allocation.
class Sha1 {
 public:
  Sha1();
  ~Sha1();
  Sha1(const Sha1&) = delete;
  Sha1& operator=(const Sha1&) = delete;
  Digest operator()(std::string_view bytes);

 private:
  struct Impl;
  Impl* impl_;
};

Digest sha1(std::string_view bytes);

}  // namespace crd
