// host_stop_labels: per (gram label, host) page counts on the label's owner; page counts without them.
#include "crd/detect/host_stop.hpp"

#include <algorithm>
#include <limits>

#include "crd/comm/collectives.hpp"
#include "crd/detect/combined_rule.hpp"
#include "host_use.hpp"

namespace crd::detect {
namespace {

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

}  // namespace

std::vector<std::uint64_t> host_stop_labels(comm::Transport& transport, const std::vector<std::string>& keys,
                                            const PageScores& scores, const LabelSlice& labels,
                                            std::uint64_t max_host_pages, std::uint64_t site_ratio,
                                            std::size_t round_bytes) {
  const std::uint64_t first_id = labels.first_id;
  if (max_host_pages == 0) return {};
  const std::vector<HostUse> uses = reduce_host_uses(
      transport, keys, scores, [](std::size_t) { return true; }, {}, first_id, round_bytes);
  // Sorted by key, so by label: a label is stopped once, when any of its hosts exceeds the limit.
  // The owner holds the label's count in the labeled corpus: a host holding the gram on no more
  // pages than the site itself does may be a copy of it. site_ratio ≥ 1: an exact mirror holds a
  // gram on at most the site's pages, but winnowing an edited page may select a gram the site's
  // page did not (docs/winnow.md, "Relative to the labeled site").
  std::vector<std::uint64_t> mine;
  for (const HostUse& u : uses) {
    const std::uint64_t label = label_of_key(u.key);
    const std::uint64_t at = label - first_id;
    const std::uint64_t count = at < labels.counts.size() ? labels.counts[at] : 0;
    const std::uint64_t site =
        count > kNoLimit / std::max<std::uint64_t>(site_ratio, 1) ? kNoLimit : count * site_ratio;
    if (u.pages > std::max(max_host_pages, site) && (mine.empty() || mine.back() != label)) mine.push_back(label);
  }
  // The owners' slices ascend with the rank, so the concatenation is ascending.
  return comm::allgather_concat(transport, std::span<const std::uint64_t>(mine));
}

PageCounts page_counts_without(const PageScores& scores, std::size_t i, std::span<const std::uint64_t> stop) {
  PageCounts c = page_counts(scores, i);
  if (stop.empty()) return c;
  for (std::uint64_t m = scores.match_offsets[i]; m < scores.match_offsets[i + 1]; ++m) {
    if (is_exact_match(scores, m) || !std::binary_search(stop.begin(), stop.end(), std::uint64_t{scores.label_ids[m]}))
      continue;
    --c.chunks;
    --c.labeled;
  }
  return c;
}

}  // namespace crd::detect
