// SHA-1 through OpenSSL EVP: the algorithm is fetched once per process and every Sha1 object
// keeps one context, so hashing a chunk allocates nothing.
#include "crd/hash/sha1.hpp"

#include <openssl/evp.h>

#include <new>
#include <stdexcept>

namespace crd {

namespace {

// Fetched once and kept for the life of the process: EVP_MD_fetch does a provider lookup that
// would otherwise dominate the cost of hashing a 100-byte chunk.
const EVP_MD* sha1_md() {
  static EVP_MD* md = [] {
    EVP_MD* m = EVP_MD_fetch(nullptr, "SHA1", nullptr);
    if (m == nullptr) throw std::runtime_error("OpenSSL: SHA1 is not available");
    return m;
  }();
  return md;
}

}  // namespace

struct Sha1::Impl {
  EVP_MD_CTX* ctx = nullptr;
};

Sha1::Sha1() : impl_(new Impl) {
  impl_->ctx = EVP_MD_CTX_new();
  if (impl_->ctx == nullptr) {
    delete impl_;
    throw std::bad_alloc();
  }
  // Initialise once with the algorithm; later calls re-initialise with a null type, which
  // reuses the already-bound implementation instead of looking it up again.
  if (EVP_DigestInit_ex2(impl_->ctx, sha1_md(), nullptr) != 1) {
    EVP_MD_CTX_free(impl_->ctx);
    delete impl_;
    throw std::runtime_error("OpenSSL: EVP_DigestInit_ex2(SHA1) failed");
  }
}

Sha1::~Sha1() {
  EVP_MD_CTX_free(impl_->ctx);
  delete impl_;
}

Digest Sha1::operator()(std::string_view bytes) {
  Digest d;
  unsigned int len = 0;
  EVP_MD_CTX* ctx = impl_->ctx;
  // The context is left finalised by the previous call; re-arm it without a new fetch.
  if (EVP_DigestInit_ex2(ctx, nullptr, nullptr) != 1 ||
      EVP_DigestUpdate(ctx, bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, d.bytes.data(), &len) != 1 || len != d.bytes.size()) {
    throw std::runtime_error("OpenSSL: SHA1 digest failed");
  }
  return d;
}

Digest sha1(std::string_view bytes) {
  thread_local Sha1 hasher;
  return hasher(bytes);
}

}  // namespace crd
