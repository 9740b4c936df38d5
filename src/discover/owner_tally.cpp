// The count / notify / annotate exchanges between hash holders and hash owners.
#include "crd/discover/owner_tally.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>

#include "crd/shuffle/byte_codec.hpp"

namespace crd::discover {
namespace {

// Wire record of exchange_counts: digest, count, length — 36 bytes, no padding.
constexpr std::size_t kCountRecord = sizeof(Digest) + 2 * sizeof(std::uint64_t);

std::array<std::byte, kCountRecord> encode_count(const Digest& d, std::uint64_t count, std::uint64_t length) {
  std::array<std::byte, kCountRecord> rec;
  std::memcpy(rec.data(), d.bytes.data(), sizeof(Digest));
  std::memcpy(rec.data() + sizeof(Digest), &count, 8);
  std::memcpy(rec.data() + sizeof(Digest) + 8, &length, 8);
  return rec;
}

}  // namespace

OwnerTally exchange_counts(comm::Transport& transport, const LocalTally& local,
                           std::size_t round_bytes, ShuffleTotals& totals) {
  const int nranks = transport.size();
  const auto n = static_cast<std::size_t>(nranks);
  std::vector<std::uint32_t> owner(local.distinct());
  std::vector<std::uint64_t> per_owner(n, 0);
  for (std::uint32_t id = 0; id < local.distinct(); ++id) {
    owner[id] = static_cast<std::uint32_t>(owner_of(local.digest(id), nranks));
    ++per_owner[owner[id]];
  }
  // Owners learn first how many records each rank will send (8 bytes per rank pair), so the
  // table and columns are sized once: growing them by doubling rehashed and copied them, and
  // touched fresh pages each time (a third of this exchange's time at one rank).
  const std::vector<std::uint64_t> incoming = transport.alltoall(per_owner);
  const std::uint64_t incoming_total = std::accumulate(incoming.begin(), incoming.end(), std::uint64_t{0});

  shuffle::Buckets buckets(nranks);
  for (std::size_t d = 0; d < n; ++d) buckets.reserve(static_cast<int>(d), per_owner[d], kCountRecord);
  for (std::uint32_t id = 0; id < local.distinct(); ++id)
    buckets.add(static_cast<int>(owner[id]), encode_count(local.digest(id), local.count(id), local.length(id)));
  std::vector<std::uint32_t>().swap(owner);

  OwnerTally owned;
  owned.index.reserve(incoming_total);  // distinct owned keys ≤ records received
  owned.digests.reserve(incoming_total);
  owned.counts.reserve(incoming_total);
  owned.lengths.reserve(incoming_total);
  owned.reported_by.resize(n);
  for (std::size_t s = 0; s < n; ++s) owned.reported_by[s].reserve(incoming[s]);
  struct Received {
    Digest digest;
    std::uint64_t count;
    std::uint64_t length;
    int source;
  };
  const auto insert = [&](const Received& r) {
    bool inserted = false;
    std::uint32_t& slot = owned.index.find_or_insert(r.digest, inserted);
    if (inserted) {
      slot = static_cast<std::uint32_t>(owned.digests.size());
      owned.digests.push_back(r.digest);
      owned.counts.push_back(0);
      owned.lengths.push_back(r.length);
    }
    owned.counts[slot] += r.count;
    owned.reported_by[static_cast<std::size_t>(r.source)].push_back(slot);
  };
  // Records are inserted kLag records after they arrive, their slots prefetched on arrival: the
  // table is far larger than the cache, and a miss per record dominated this loop. A FIFO keeps
  // the arrival order, which fixes ids and reported_by.
  constexpr std::size_t kLag = 8;
  std::array<Received, kLag> lag;
  std::size_t oldest = 0;
  std::size_t waiting = 0;
  totals.add(shuffle::exchange(transport, buckets, round_bytes,
                               [&](int source, std::span<const std::byte> rec) {
    shuffle::ByteReader in(rec);  // encode_count's layout
    Received r{};
    r.digest = in.pod<Digest>();
    r.count = in.pod<std::uint64_t>();
    r.length = in.pod<std::uint64_t>();
    r.source = source;
    owned.index.prefetch(r.digest);
    if (waiting == kLag) {
      insert(lag[oldest]);
      lag[oldest] = r;
      oldest = (oldest + 1) % kLag;
    } else {
      lag[(oldest + waiting++) % kLag] = r;
    }
  }));
  for (; waiting > 0; --waiting, oldest = (oldest + 1) % kLag) insert(lag[oldest]);
  return owned;
}

std::vector<TaggedId> notify_reporters(comm::Transport& transport, const OwnerTally& owned,
                                       const std::vector<std::uint64_t>& tags, const LocalTally& local,
                                       std::size_t round_bytes, ShuffleTotals& totals) {
  // Notice: (position k in what the reporter sent here, tag) — 12 bytes instead of a digest.
  struct Notice {
    std::uint32_t position;
    std::uint32_t tag_lo;
    std::uint32_t tag_hi;
  };
  const int nranks = transport.size();
  shuffle::Buckets buckets(nranks);
  for (int s = 0; s < nranks; ++s) {
    const auto& ids = owned.reported_by[static_cast<std::size_t>(s)];
    for (std::uint32_t k = 0; k < ids.size(); ++k)
      if (tags[ids[k]] != kNotSelected)
        buckets.add_pod(s, Notice{k, static_cast<std::uint32_t>(tags[ids[k]]),
                                  static_cast<std::uint32_t>(tags[ids[k]] >> 32)});
  }
  // What this rank sent to owner o, in order: its local ids whose owner is o, ascending. The
  // k-th of them is the one a notice from o with position k refers to.
  std::vector<std::vector<std::uint32_t>> sent(static_cast<std::size_t>(nranks));
  for (std::uint32_t id = 0; id < local.distinct(); ++id)
    sent[static_cast<std::size_t>(owner_of(local.digest(id), nranks))].push_back(id);

  std::vector<TaggedId> result;
  totals.add(shuffle::exchange(transport, buckets, round_bytes,
                               [&](int source, std::span<const std::byte> rec) {
    const auto n = shuffle::read_pod<Notice>(rec);
    const std::uint64_t tag = (static_cast<std::uint64_t>(n.tag_hi) << 32) | n.tag_lo;
    result.push_back({sent[static_cast<std::size_t>(source)].at(n.position), tag});
  }));
  std::sort(result.begin(), result.end(),
            [](const TaggedId& a, const TaggedId& b) { return a.local_id < b.local_id; });
  return result;
}

std::vector<Annotation> gather_annotations(comm::Transport& transport, const OwnerTally& owned,
                                           const std::vector<TaggedId>& selected_local,
                                           const LocalTally& local, const PageKeys& keys,
                                           std::size_t round_bytes, ShuffleTotals& totals) {
  const int nranks = transport.size();
  shuffle::Buckets buckets(nranks);
  shuffle::ByteWriter w;
  for (const TaggedId& t : selected_local) {
    const std::uint32_t id = t.local_id;
    w.clear();
    w.pod(local.digest(id)).str(keys[local.first_page(id)]).str(local.sample(id));
    buckets.add(owner_of(local.digest(id), nranks), w.bytes());
  }
  std::vector<Annotation> out(owned.distinct());
  std::vector<std::uint8_t> seen(owned.distinct(), 0);
  totals.add(shuffle::exchange(transport, buckets, round_bytes,
                               [&](int, std::span<const std::byte> rec) {
    shuffle::ByteReader r(rec);
    const auto d = r.pod<Digest>();
    const std::string_view url = r.str();
    const std::string_view sample = r.str();
    const std::uint32_t* id = owned.index.find(d);
    if (id == nullptr) return;  // cannot happen unless a rank's tables disagree
    Annotation& a = out[*id];
    if (seen[*id] == 0 || url < a.sample_url) a.sample_url = std::string(url);
    if (seen[*id] == 0) a.sample = std::string(sample);
    seen[*id] = 1;
  }));
  return out;
}

}  // namespace crd::discover
