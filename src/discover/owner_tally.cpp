// The count / notify / annotate exchanges between hash holders and hash owners.
#include "crd/discover/owner_tally.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "crd/base/prefault.hpp"
#include "crd/base/saturating.hpp"
#include "crd/shuffle/key_order.hpp"

namespace crd::discover {
namespace {

// What an owner tells a reporter about a selected hash.
struct Notice {
  std::uint32_t reporter = 0;
  Digest digest;
  std::uint64_t tag = 0;
  static constexpr auto fields() { return std::tuple(&Notice::reporter, &Notice::digest, &Notice::tag); }
};
struct NoticeKey {
  std::uint32_t reporter;
  Digest digest;
  auto operator<=>(const NoticeKey&) const = default;
};

// A lambda, not a function: the sort's comparisons inline it (a function pointer they call).
constexpr auto digest_of = [](const auto& r) -> const Digest& { return r.digest; };

}  // namespace

OwnerTally exchange_counts(comm::Transport& transport, const LocalTally& local, std::size_t round_bytes,
                           ShuffleTotals& totals) {
  std::vector<CountRow> records = shuffle::build_in_key_order<CountRow>(
      local.distinct(), [&](std::size_t id) -> const Digest& { return local.digest(static_cast<std::uint32_t>(id)); },
      [&](std::size_t id) {
        const auto i = static_cast<std::uint32_t>(id);
        return CountRow{local.digest(i), local.count(i), local.length(i)};
      },
      [](const CountRow& r) -> const Digest& { return r.hash; });
  return reduce_counts(transport, std::move(records), round_bytes, totals);
}

OwnerTally reduce_counts(comm::Transport& transport, std::vector<CountRow> records, std::size_t round_bytes,
                         ShuffleTotals& totals) {
  OwnerTally owned;
  shuffle::ExchangeStats stats;
  owned.rows = shuffle::reduce_by_key(
      transport, std::move(records), [](const CountRow& r) -> const Digest& { return r.hash; },
      shuffle::HashPrefixOwner{}, [](CountRow& into, const CountRow& from) { into.count = saturating_add(into.count, from.count); },
      {round_bytes, &stats}, &owned.reporters);
  totals.add(stats);
  return owned;
}

std::vector<TaggedId> notify_reporters(comm::Transport& transport, const OwnerTally& owned,
                                       const std::vector<std::uint64_t>& tags, const LocalTally& local,
                                       std::size_t round_bytes, ShuffleTotals& totals) {
  std::vector<Notice> notices;
  const auto& reporters = owned.reporters;
  for (std::size_t id = 0; id < owned.distinct(); ++id) {
    if (tags[id] == kNotSelected) continue;
    for (auto k = reporters.offsets[id]; k < reporters.offsets[id + 1]; ++k)
      notices.push_back({reporters.ranks[k], owned.digest(id), tags[id]});
  }
  shuffle::ExchangeStats stats;
  const auto received = shuffle::reduce_by_key(
      transport, std::move(notices),
      [](const Notice& n) {
        return NoticeKey{n.reporter, n.digest};
      },
      [](const NoticeKey& key, int) { return static_cast<int>(key.reporter); }, [](Notice&, const Notice&) {},
      {round_bytes, &stats});  // one notice per (reporter, hash)
  totals.add(stats);

  std::vector<TaggedId> result;
  result.reserve(received.size());
  for (const Notice& n : received) {
    const std::int64_t id = local.find(n.digest);
    if (id < 0) throw std::logic_error("notify_reporters: notice for a hash this rank did not report");
    result.push_back({static_cast<std::uint32_t>(id), n.tag});
  }
  std::sort(result.begin(), result.end(), [](const TaggedId& a, const TaggedId& b) { return a.local_id < b.local_id; });
  return result;
}

std::vector<Annotation> gather_annotations(comm::Transport& transport, const OwnerTally& owned,
                                           const std::vector<std::uint32_t>& ids,
                                           const std::vector<TaggedId>& selected_local, const LocalTally& local,
                                           const PageKeys& keys, std::size_t round_bytes, ShuffleTotals& totals) {
  std::vector<AnnotationRecord> records;
  records.reserve(selected_local.size());
  for (const TaggedId& t : selected_local)
    records.push_back(
        {local.digest(t.local_id), keys[local.first_page(t.local_id)], std::string(local.sample(t.local_id))});
  return reduce_annotations(transport, owned, ids, std::move(records), round_bytes, totals);
}

std::vector<Annotation> reduce_annotations(comm::Transport& transport, const OwnerTally& owned,
                                           const std::vector<std::uint32_t>& ids, std::vector<AnnotationRecord> records,
                                           std::size_t round_bytes, ShuffleTotals& totals) {
  shuffle::ExchangeStats stats;
  auto received = shuffle::reduce_by_key(
      transport, std::move(records), digest_of,
      [](AnnotationRecord& into, AnnotationRecord& from) {
        if (from.sample_url < into.sample_url) {  // equal hashes have equal samples; keep the pair
          into.sample_url = std::move(from.sample_url);
          into.sample = std::move(from.sample);
        }
      },
      {round_bytes, &stats});
  totals.add(stats);

  // Both sides ascend by hash: walk them together to file each annotation beside its id. Only
  // the ids asked for get a slot: one per owned hash was 77 MB of empty strings at 1.2M hashes.
  std::vector<Annotation> out(ids.size());
  std::size_t k = 0;
  for (AnnotationRecord& r : received) {
    while (k < ids.size() && owned.digest(ids[k]) < r.digest) ++k;
    if (k == ids.size()) break;
    if (owned.digest(ids[k]) != r.digest) continue;  // not asked for (merge: not counted or not labeled)
    out[k] = {std::move(r.sample), std::move(r.sample_url)};
  }
  return out;
}

}  // namespace crd::discover
