// label_provenance: where each label occurs — pages, occurrences and the smallest page keys from
// the pages' ranks, distinct neighborhoods from the neighborhoods' owners — gathered on the
// label's owner rank.
#include <algorithm>
#include <iterator>
#include <numeric>
#include <string_view>
#include <tuple>

#include "crd/comm/collectives.hpp"
#include "crd/detect/detection.hpp"
#include "crd/shuffle/reduce_by_key.hpp"
#include "label_owner.hpp"
#include "label_slots.hpp"

namespace crd::detect {
namespace {

constexpr std::size_t kNoPage = ~std::size_t{0};

// One label's use on this rank, by its slot in LabelSlots.
struct LocalUse {
  std::uint64_t occurrences = 0;
  std::uint64_t pages = 0;
  std::uint64_t neighborhoods = 0;
  std::size_t last_page = kNoPage;  // the page that last counted it (a page's matches are adjacent)
  std::size_t kept = 0;             // sample keys kept so far, at most `samples`
  std::size_t last_kept = kNoPage;  // the page whose key was kept last
};

// A sample key kept for a label: its slot and the page.
struct Kept {
  std::uint32_t slot;
  std::size_t page;
};

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
  const auto key_of = [&](std::size_t i) { return std::string_view(keys[scores.page[i]]); };
  // Pages in ascending key order, so a label's first `samples` distinct keys met are its smallest:
  // no ordered set per label (an allocation per page match, and most of detect's time with
  // --chunker winnow). Equal keys are adjacent in this order, so comparing with the last kept key
  // keeps them distinct.
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (samples > 0)
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key_of(a) < key_of(b); });
  detail::LabelSlots slots;
  std::vector<LocalUse> local;  // by slot
  std::vector<Kept> kept;
  const auto slot_of = [&](std::uint32_t id) {
    const std::uint32_t s = slots.slot(id);
    if (s == local.size()) local.emplace_back();
    return s;
  };
  for (const std::size_t i : order) {
    for (std::uint64_t m = scores.match_offsets[i]; m < scores.match_offsets[i + 1]; ++m) {
      const std::uint32_t s = slot_of(scores.label_ids[m]);
      LocalUse& use = local[s];
      ++use.occurrences;
      if (use.last_page == i) continue;
      use.last_page = i;
      ++use.pages;
      if (use.kept < samples && (use.kept == 0 || key_of(use.last_kept) != key_of(i))) {
        ++use.kept;
        use.last_kept = i;
        kept.push_back({s, i});
      }
    }
  }
  // Each neighborhood's owner holds its distinct labels: one neighborhood for each of them.
  for (const auto& ids : hood_labels)
    for (const std::uint32_t id : ids) ++local[slot_of(id)].neighborhoods;

  // Every rank's first label id, to route a label id to its owner.
  const std::vector<std::uint64_t> firsts =
      comm::allgather_concat(transport, std::span<const std::uint64_t>(&labels.first_id, 1));

  // One record per label this rank met; its kept keys in the order kept (ascending).
  std::vector<Use> uses(local.size());
  for (std::size_t s = 0; s < local.size(); ++s) {
    uses[s] = {slots.ids()[s], local[s].occurrences, local[s].pages, local[s].neighborhoods, {}};
    uses[s].sample_urls.reserve(local[s].kept);
  }
  for (const Kept& k : kept) uses[k.slot].sample_urls.emplace_back(key_of(k.page));

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
