// Nilsimsa (Damiani et al., "An open digest-based technique for spam detection", 2004), the
// locality-sensitive hash the paper compares SHA-1 with (§6.5). Written here because no Debian
// package provides it (Debian 12 has no libnilsimsa, and the Perl/Python modules are not packaged).
//
// The digest follows the published definition (cmeclax's nilsimsa 0.2.4, as the reference
// implementations diffeo/py-nilsimsa and jwilkins/nilsimsa restate it): every trigram of a 5-byte
// sliding window is hashed by the "tran53" function into one of 256 accumulators; a digest bit is
// set where its accumulator exceeds the mean; the 32 bytes are stored in reverse order. Two digests
// compare as 128 − (differing bits), from −128 to 128 (identical).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crd::compare {

using NilsimsaDigest = std::array<std::uint8_t, 32>;

NilsimsaDigest nilsimsa(std::string_view data);

// 128 − Hamming distance: 128 for identical digests, −128 for complementary ones.
int nilsimsa_compare(const NilsimsaDigest& a, const NilsimsaDigest& b);

std::string to_hex(const NilsimsaDigest& d);

}  // namespace crd::compare
