// label_provenance: where each label occurs — pages, occurrences and the smallest page keys from
// the pages' ranks, distinct neighborhoods from the neighborhoods' owners — gathered on the
// label's owner rank.
#include <algorithm>
#include <cstring>
#include <set>
#include <string_view>
#include <unordered_map>

#include "crd/detect/detection.hpp"
#include "crd/shuffle/byte_codec.hpp"
#include "crd/shuffle/exchange.hpp"

namespace crd::detect {
namespace {

struct LocalUse {
  std::uint64_t occurrences = 0;
  std::uint64_t pages = 0;
  std::size_t last_page = ~std::size_t{0};
  std::set<std::string_view> keys;  // the smallest `samples` keys
};

// Owner of a label id: the rank whose slice [first, first + size) holds it.
int owner_of_label(const std::vector<std::uint64_t>& firsts, std::uint64_t id) {
  const auto it = std::upper_bound(firsts.begin(), firsts.end(), id);
  return static_cast<int>(it - firsts.begin()) - 1;
}

template <class Set>
void keep_smallest(Set& set, std::size_t limit) {
  while (set.size() > limit) set.erase(std::prev(set.end()));
}

}  // namespace

std::vector<LabelUse> label_provenance(comm::Transport& transport, const std::vector<std::string>& keys,
                                       const PageScores& scores, const LabelSlice& labels,
                                       const DetectOptions& options, std::size_t round_bytes,
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
      transport.allgather_pods(std::span<const std::uint64_t>(&labels.first_id, 1));

  shuffle::Buckets buckets(transport.size());
  shuffle::ByteWriter w;
  for (const auto& [id, use] : local) {
    w.clear();
    w.pod(std::uint8_t{0}).pod(static_cast<std::uint64_t>(id)).pod(use.occurrences).pod(use.pages);
    w.pod(static_cast<std::uint32_t>(use.keys.size()));
    for (auto k : use.keys) w.str(k);
    buckets.add(owner_of_label(firsts, id), w.bytes());
  }
  // Each neighborhood's owner holds its distinct labels: one small record per (neighborhood, label).
  for (const auto& ids : hood_labels) {
    for (std::uint32_t id : ids) {
      w.clear();
      w.pod(std::uint8_t{1}).pod(static_cast<std::uint64_t>(id));
      buckets.add(owner_of_label(firsts, id), w.bytes());
    }
  }

  std::vector<LabelUse> out(labels.hashes.size());
  std::vector<std::set<std::string>> keys_of(out.size());
  shuffle::exchange(transport, buckets, round_bytes, [&](int, std::span<const std::byte> rec) {
    shuffle::ByteReader r(rec);
    const auto kind = r.pod<std::uint8_t>();
    const auto index = static_cast<std::size_t>(r.pod<std::uint64_t>() - labels.first_id);
    if (kind == 1) {
      ++out[index].neighborhoods;
      return;
    }
    out[index].occurrences += r.pod<std::uint64_t>();
    out[index].pages += r.pod<std::uint64_t>();
    for (auto n = r.pod<std::uint32_t>(); n > 0; --n) keys_of[index].emplace(r.str());
    keep_smallest(keys_of[index], samples);
  });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].sample_urls.assign(keys_of[i].begin(), keys_of[i].end());
  return out;
}

}  // namespace crd::detect
