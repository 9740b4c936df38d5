// Counting a host's blocks across the job for --boilerplate-pages (see boilerplate.hpp).
#include "crd/neardup/boilerplate.hpp"

#include <algorithm>

#include "crd/base/uint128.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/text/fingerprint.hpp"

namespace crd::neardup {

void count_blocks(const BlockTokens& page, std::vector<BlockCount>& counts) {
  std::vector<std::uint64_t> keys = page.keys;
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (const std::uint64_t k : keys) counts.push_back({k, 1});
}

std::vector<std::uint64_t> boilerplate_keys(comm::Transport& transport, std::vector<BlockCount> counts,
                                            std::uint64_t min_pages, const shuffle::ShuffleConfig& config) {
  const auto owned = shuffle::reduce_by_key(
      transport, std::move(counts), [](const BlockCount& c) { return c.key; },
      [](std::uint64_t key, int nranks) { return scale_to_rank(text::mix64(key), nranks); },
      [](BlockCount& into, const BlockCount& from) { into.pages += from.pages; }, config);
  std::vector<std::uint64_t> mine;
  for (const BlockCount& c : owned)
    if (c.pages >= min_pages) mine.push_back(c.key);
  auto all = comm::allgather_concat<std::uint64_t>(transport, mine);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace crd::neardup
