// cross_host_stop_labels: the distinct hosts of each labeled gram's unrelated pages, on its owner.
#include "cross_host_stop.hpp"

#include <algorithm>

#include "crd/comm/collectives.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/shuffle/reduce_by_key.hpp"
#include "host_use.hpp"
#include "label_owner.hpp"

namespace crd::detect {

std::vector<std::uint64_t> cross_host_stop_labels(comm::Transport& transport, const std::vector<std::string>& keys,
                                                  const PageScores& scores, std::span<const PageCounts> counts,
                                                  std::span<const std::uint64_t> stopped, const LabelSlice& labels,
                                                  std::uint64_t min_hosts, double cut, std::size_t round_bytes) {
  if (min_hosts == 0) return {};
  // One record per page below the cut and distinct labeled gram; reduce_by_key folds a host's
  // pages on this rank first, so the owner meets each (label, host) once.
  std::vector<HostUse> uses;
  std::vector<std::uint32_t> distinct;
  Sha1 sha1;
  std::string_view host;
  Digest host_digest;
  bool have_host = false;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    // A page that is mostly copied (a mirror's) is no witness that a gram is common phrasing.
    if (!(containment(counts[i].labeled, counts[i].chunks) < cut)) continue;
    const std::string_view page_host = host_of_key(keys[scores.page[i]]);
    if (!have_host || page_host != host) {
      host_digest = sha1(host = page_host);
      have_host = true;
    }
    distinct.clear();
    for (std::uint64_t m = scores.match_offsets[i]; m < scores.match_offsets[i + 1]; ++m) {
      const std::uint64_t id = scores.label_ids[m];
      if (!is_exact_match(scores, m) && !std::binary_search(stopped.begin(), stopped.end(), id))
        distinct.push_back(scores.label_ids[m]);
    }
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (std::uint32_t id : distinct) uses.push_back({host_key(id, host_digest), 1});
  }
  const std::uint64_t first_id = labels.first_id;
  const std::vector<std::uint64_t> firsts =
      comm::allgather_concat(transport, std::span<const std::uint64_t>(&first_id, 1));
  uses = shuffle::reduce_by_key(
      transport, std::move(uses), [](const HostUse& u) -> const Digest& { return u.key; },
      [&](const Digest& key, int) { return owner_of_label(firsts, label_of_key(key)); },
      [](HostUse& into, HostUse& from) { into.pages += from.pages; }, {round_bytes});
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
