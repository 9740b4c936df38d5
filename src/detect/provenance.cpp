// label_provenance: where each label occurs — pages, occurrences and the smallest page keys from
// the pages' ranks, distinct neighborhoods from the neighborhoods' owners — gathered on the
// label's owner rank.
#include <algorithm>
#include <iterator>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "crd/comm/collectives.hpp"
#include "crd/detect/detection.hpp"
#include "crd/shuffle/reduce_by_key.hpp"
#include "label_owner.hpp"

namespace crd::detect {
namespace {

struct LocalUse {
  std::uint64_t occurrences = 0;
  std::uint64_t pages = 0;
  std::size_t last_page = ~std::size_t{0};
  std::set<std::string_view> keys;  // the smallest `samples` keys
};

template <class Set>
void keep_smallest(Set& set, std::size_t limit) {
  while (set.size() > limit) set.erase(std::prev(set.end()));
}

// What is known about one label's use, as it travels to the label's owner and combines there.
struct Use {
  std::uint64_t label = 0;
  std::uint64_t occurrences = 0;
  std::uint64_t pages = 0;
  std::uint64_t neighborhoods = 0;
  std::vector<std::string> sample_urls;  // the smallest page keys, ascending, distinct
  static constexpr auto fields() {
    return std::tuple(&Use::label, &Use::occurrences, &Use::pages, &Use::neighborhoods, &Use::sample_urls);
  }
};

}  // namespace

std::vector<LabelUse> label_provenance(comm::Transport& transport, const std::vector<std::string>& keys,
                                       const PageScores& scores, const LabelSlice& labels, const DetectOptions& options,
                                       std::size_t round_bytes,
                                       const std::vector<std::vector<std::uint32_t>>& hood_labels) {
  const std::size_t samples = options.provenance_samples;
  // Hashed, not ordered: a lookup per label match (1.26M on 55k pages) walked a tree before;
  // the owners' sums and key sets do not depend on the order records are sent in.
  std::unordered_map<std::uint32_t, LocalUse> local;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const std::string_view key = keys[scores.page[i]];
    for (std::uint64_t m = scores.match_offsets[i]; m < scores.match_offsets[i + 1]; ++m) {
      LocalUse& use = local[scores.label_ids[m]];
      ++use.occurrences;
      if (use.last_page == i) continue;
      use.last_page = i;
      ++use.pages;
      if (samples > 0) {
        use.keys.insert(key);
        keep_smallest(use.keys, samples);
      }
    }
  }

  // Every rank's first label id, to route a label id to its owner.
  const std::vector<std::uint64_t> firsts =
      comm::allgather_concat(transport, std::span<const std::uint64_t>(&labels.first_id, 1));

  std::vector<Use> uses;
  uses.reserve(local.size());
  for (const auto& [id, use] : local)
    uses.push_back({id, use.occurrences, use.pages, 0, std::vector<std::string>(use.keys.begin(), use.keys.end())});
  // Each neighborhood's owner holds its distinct labels: one neighborhood for each of them.
  for (const auto& ids : hood_labels)
    for (std::uint32_t id : ids) uses.push_back({id, 0, 0, 1, {}});

  uses = shuffle::reduce_by_key(
      transport, std::move(uses), [](const Use& u) { return u.label; },
      [&](std::uint64_t id, int) { return owner_of_label(firsts, id); },
      [samples](Use& into, Use& from) {
        into.occurrences += from.occurrences;
        into.pages += from.pages;
        into.neighborhoods += from.neighborhoods;
        std::vector<std::string> merged;
        auto& a = into.sample_urls;
        auto& b = from.sample_urls;
        std::set_union(std::make_move_iterator(a.begin()), std::make_move_iterator(a.end()),
                       std::make_move_iterator(b.begin()), std::make_move_iterator(b.end()),
                       std::back_inserter(merged));
        if (merged.size() > samples) merged.resize(samples);
        into.sample_urls = std::move(merged);
      },
      {round_bytes});
  std::vector<LabelUse> out(labels.hashes.size());
  for (Use& u : uses)
    out[static_cast<std::size_t>(u.label - labels.first_id)] = {u.pages, u.neighborhoods, u.occurrences,
                                                                std::move(u.sample_urls)};
  return out;
}

}  // namespace crd::detect
