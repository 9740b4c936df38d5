// cross_host_stop_labels: the distinct hosts of each labeled gram's unrelated pages, on its owner.
#include "cross_host_stop.hpp"

#include <algorithm>

#include "crd/comm/collectives.hpp"
#include "host_use.hpp"

namespace crd::detect {

std::vector<std::uint64_t> cross_host_stop_labels(comm::Transport& transport, const std::vector<std::string>& keys,
                                                  const PageScores& scores, std::span<const PageCounts> counts,
                                                  std::span<const std::uint64_t> stopped, const LabelSlice& labels,
                                                  std::uint64_t min_hosts, double cut, std::size_t round_bytes) {
  if (min_hosts == 0) return {};
  // A page that is mostly copied (a mirror's) is no witness that a gram is common phrasing.
  const std::vector<HostUse> uses = reduce_host_uses(
      transport, keys, scores, [&](std::size_t i) { return containment(counts[i].labeled, counts[i].chunks) < cut; },
      stopped, labels.first_id, round_bytes);
  // Sorted by key, so a label's hosts are consecutive, each once.
  std::vector<std::uint64_t> mine;
  for (std::size_t at = 0; at < uses.size();) {
    const std::uint32_t label = label_of_key(uses[at].key);
    std::size_t end = at;
    while (end < uses.size() && label_of_key(uses[end].key) == label) ++end;
    if (end - at >= min_hosts) mine.push_back(label);
    at = end;
  }
  // The owners' slices ascend with the rank, so the concatenation is ascending.
  return comm::allgather_concat(transport, std::span<const std::uint64_t>(mine));
}

}  // namespace crd::detect
