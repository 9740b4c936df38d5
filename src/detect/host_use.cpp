// reduce_host_uses: one (label, host) record per page and distinct gram, reduced at the label's owner.
#include "host_use.hpp"

#include "crd/comm/collectives.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/shuffle/reduce_by_key.hpp"
#include "label_owner.hpp"

namespace crd::detect {

std::vector<HostUse> reduce_host_uses(comm::Transport& transport, const std::vector<std::string>& keys,
                                      const PageScores& scores, const std::function<bool(std::size_t)>& counted,
                                      std::span<const std::uint64_t> skip, std::uint64_t first_id,
                                      std::size_t round_bytes) {
  // reduce_by_key folds a host's pages on this rank first, so the owner meets each (label, host) once.
  std::vector<HostUse> uses;
  std::vector<std::uint32_t> distinct;
  Sha1 sha1;
  std::string_view host;
  Digest host_digest;
  bool have_host = false;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (!counted(i)) continue;
    const std::string_view page_host = host_of_key(keys[scores.page[i]]);
    if (!have_host || page_host != host) {
      host_digest = sha1(host = page_host);
      have_host = true;
    }
    distinct.clear();
    for (std::uint64_t m = scores.match_offsets[i]; m < scores.match_offsets[i + 1]; ++m) {
      const std::uint64_t id = scores.label_ids[m];
      if (!is_exact_match(scores, m) && !std::binary_search(skip.begin(), skip.end(), id))
        distinct.push_back(scores.label_ids[m]);
    }
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (std::uint32_t id : distinct) uses.push_back({host_key(id, host_digest), 1});
  }
  const std::vector<std::uint64_t> firsts =
      comm::allgather_concat(transport, std::span<const std::uint64_t>(&first_id, 1));
  return shuffle::reduce_by_key(
      transport, std::move(uses), [](const HostUse& u) -> const Digest& { return u.key; },
      [&](const Digest& key, int) { return owner_of_label(firsts, label_of_key(key)); },
      [](HostUse& into, HostUse& from) { into.pages += from.pages; }, {round_bytes});
}

}  // namespace crd::detect
