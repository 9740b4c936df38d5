// The blocks found on many pages of one host (crd neardup --boilerplate-pages N), counted through
// the shuffle as discover counts chunks: each rank counts the pages of its shard that hold each
// block key (blocks.hpp; a key is salted with its host, so counts are per host), the counts are
// summed at each key's owner (reduce_by_key, owner by the key's mixed bits), and the keys on at
// least N pages are shared with every rank (few: a host's navigation, footer and template lines).
// Collective; the same keys for any rank count and input order.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "crd/comm/transport.hpp"
#include "crd/neardup/blocks.hpp"
#include "crd/shuffle/reduce_by_key.hpp"

namespace crd::neardup {

// A block key and the pages that hold it.
struct BlockCount {
  std::uint64_t key = 0;
  std::uint64_t pages = 0;
  static constexpr auto fields() { return std::tuple(&BlockCount::key, &BlockCount::pages); }
};

// Adds a page's distinct block keys to `counts` (one record per distinct key per page; combined
// by reduce_by_key before anything is sent).
void count_blocks(const BlockTokens& page, std::vector<BlockCount>& counts);

// Collective: the keys on at least min_pages pages over the whole job, sorted, on every rank.
std::vector<std::uint64_t> boilerplate_keys(comm::Transport& transport, std::vector<BlockCount> counts,
                                            std::uint64_t min_pages, const shuffle::ShuffleConfig& config);

}  // namespace crd::neardup
