// The TLSH and ssdeep wrappers (fuzzy_hashes.hpp).
#include "fuzzy_hashes.hpp"

#include <fuzzy.h>
#include <tlsh.h>

#include <string>

namespace crd::compare {

TlshDigest::TlshDigest(std::unique_ptr<Tlsh> t) : tlsh_(std::move(t)) {}
TlshDigest::TlshDigest(TlshDigest&&) noexcept = default;
TlshDigest& TlshDigest::operator=(TlshDigest&&) noexcept = default;
TlshDigest::~TlshDigest() = default;

std::optional<TlshDigest> TlshDigest::of(std::string_view data) {
  // libtlsh declines any input shorter than its MIN_DATA_LENGTH only after hashing all of it: most
  // chunks are that short, so they are declined here without the work (test_chunk_sketch).
  if (data.size() < MIN_DATA_LENGTH) return std::nullopt;
  auto t = std::make_unique<Tlsh>();
  // TLSH takes an unsigned int length; a chunk is at most --max-record-bytes, far below 4 GiB, but
  // a longer one is digested from its first 4 GiB − 1 bytes rather than wrapped.
  const auto len = static_cast<unsigned>(std::min<std::size_t>(data.size(), 0xFFFFFFFFu));
  t->final(reinterpret_cast<const unsigned char*>(data.data()), len);
  const char* h = t->getHash();
  if (h == nullptr || *h == '\0') return std::nullopt;  // TLSH declined (too short, too uniform)
  return TlshDigest(std::move(t));
}

std::optional<TlshDigest> TlshDigest::parse(const std::string& hex) {
  auto t = std::make_unique<Tlsh>();
  if (t->fromTlshStr(hex.c_str()) != 0) return std::nullopt;
  return TlshDigest(std::move(t));
}

std::string TlshDigest::hex() const { return tlsh_->getHash(); }

int TlshDigest::distance(const TlshDigest& other) const { return tlsh_->totalDiff(other.tlsh_.get(), true); }

std::string ssdeep_digest(std::string_view data) {
  char out[FUZZY_MAX_RESULT];
  if (fuzzy_hash_buf(reinterpret_cast<const unsigned char*>(data.data()), static_cast<std::uint32_t>(data.size()),
                     out) != 0)
    return {};
  return out;
}

int ssdeep_compare(const std::string& a, const std::string& b) { return fuzzy_compare(a.c_str(), b.c_str()); }

}  // namespace crd::compare
