// One host's pages holding one label: the record that the stop grams per host and across hosts
// (host_stop.cpp, cross_host_stop.cpp) send to the label's owner in one reduce-by-key.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/detect/page_scores.hpp"
#include "crd/hash/digest.hpp"

namespace crd::detect {

// The key's first 4 bytes are the label id, big-endian, the other 16 the leading bytes of the
// host's SHA-1: keys sort by label first, so each owner meets a label's hosts together, and the
// records are fixed-size and trivially copyable (the shuffle's radix sort and unframed exchange).
// Two hosts share a key only if their SHA-1s agree in 128 bits, which no crawl will see
// (docs/winnow.md, "Collisions").
struct HostUse {
  Digest key;
  std::uint64_t pages = 0;
  static constexpr auto fields() { return std::tuple(&HostUse::key, &HostUse::pages); }
};

inline Digest host_key(std::uint32_t label, const Digest& host) {
  Digest key;
  for (int b = 0; b < 4; ++b) key.bytes[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(label >> (24 - 8 * b));
  std::copy(host.bytes.begin(), host.bytes.begin() + 16, key.bytes.begin() + 4);
  return key;
}

inline std::uint32_t label_of_key(const Digest& key) {
  std::uint32_t label = 0;
  for (int b = 0; b < 4; ++b) label = (label << 8) | key.bytes[static_cast<std::size_t>(b)];
  return label;
}

// A page's host: its key's first component (url_prefixes.hpp's depth 0).
inline std::string_view host_of_key(std::string_view key) { return key.substr(0, key.find('/')); }

// Exact chunks of --chunker winnow+scan keep their own stop rules (--stop-chunks, the combined
// rule's exact part): a page cut down to a few copied paragraphs is flagged by them, template
// chunk included (docs/winnow.md, "Deletions"). Only grams are counted and stopped.
inline bool is_exact_match(const PageScores& scores, std::uint64_t m) {
  return !scores.match_exact.empty() && scores.match_exact[m] != 0;
}

// The (label, host) records of the pages that `counted` admits (by their index in scores): one per
// page and distinct gram, leaving out exact chunks and the labels in `skip` (ascending), reduced at
// each label's owner (first_id: this rank's first label id; owners' slices ascend with the rank).
// Returns this rank's records sorted by key, so a label's hosts are consecutive, each once with its
// page count. Collective; exact integers, the same for any rank count and input order.
std::vector<HostUse> reduce_host_uses(comm::Transport& transport, const std::vector<std::string>& keys,
                                      const PageScores& scores, const std::function<bool(std::size_t)>& counted,
                                      std::span<const std::uint64_t> skip, std::uint64_t first_id,
                                      std::size_t round_bytes);

}  // namespace crd::detect
