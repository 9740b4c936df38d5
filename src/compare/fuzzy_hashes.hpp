// TLSH (Debian libtlsh-dev, 3.4.4) and ssdeep (libfuzzy-dev, 2.14) behind two small value types,
// so the comparison code never touches either library's API. Both can decline to digest a short
// input (TLSH 3.4 needs at least 256 bytes with some variety; ssdeep digests anything but only
// scores inputs that share a 7-character run of their signatures): such a chunk has no digest and
// can never match, which the comparison counts and reports.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

class Tlsh;

namespace crd::compare {

// A TLSH digest, kept parsed so comparing with many others does not parse it again.
class TlshDigest {
 public:
  // nullopt when TLSH gives no digest for the input (too short or too uniform).
  static std::optional<TlshDigest> of(std::string_view data);
  // From TLSH's hex form, as hex() gives; nullopt if malformed.
  static std::optional<TlshDigest> parse(const std::string& hex);
  TlshDigest(TlshDigest&&) noexcept;
  TlshDigest& operator=(TlshDigest&&) noexcept;
  ~TlshDigest();

  std::string hex() const;
  // TLSH's distance with the length term (0 = same digest; larger = more different).
  int distance(const TlshDigest& other) const;

 private:
  explicit TlshDigest(std::unique_ptr<Tlsh> t);
  std::unique_ptr<Tlsh> tlsh_;
};

// ssdeep's signature of the input ("blocksize:hash1:hash2").
std::string ssdeep_digest(std::string_view data);
// ssdeep's match score, 0 (no match) … 100; -1 when a signature is malformed.
int ssdeep_compare(const std::string& a, const std::string& b);

}  // namespace crd::compare
