// reduce_by_key and group_by_key: the shuffle's one typed operation, after Thrill's ReduceByKey.
// Each rank hands in the records it produced; every key ends up combined exactly once, on the
// rank that owns it, and each rank gets back its owned results sorted by key:
//   1. local pre-combine: sort this rank's records by key and fold equal keys (one record per key
//      per rank travels; key_order.hpp);
//   2. route: encode each record from its field list (reduce_pre_phase.hpp) into the bucket of
//      owner(key, nranks) and send them with exchange()'s bounded all-to-all rounds (unframed
//      when every record encodes to the same size); records for this rank itself skip the codec.
//      Trivially copyable records with digest keys and the default owner skip it too: sorted,
//      each owner's records are one range, sent as they lie (kSentInRanges);
//   3. owner-side combine: merge the per-source runs (each already sorted), folding equal keys
//      (reduce_post_phase.hpp).
// With a combine that is associative and commutative, the results (and their order) are the same
// for any rank count and any input order. Collective: every rank must call, with the same owner.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "crd/base/byte_codec.hpp"
#include "crd/base/fields.hpp"
#include "crd/base/uint128.hpp"
#include "crd/comm/collectives/alltoall.hpp"
#include "crd/comm/transport.hpp"
#include "crd/shuffle/exchange.hpp"
#include "crd/shuffle/key_order.hpp"
#include "crd/shuffle/reduce_post_phase.hpp"
#include "crd/shuffle/reduce_pre_phase.hpp"

namespace crd::shuffle {

struct ShuffleConfig {
  std::size_t round_bytes = std::size_t{64} << 20;  // payload per rank per round (≥ one record)
  ExchangeStats* stats = nullptr;                   // if set, this call's traffic is added to it
};

// The default owner: the key's leading 64 bits (a Digest's prefix64()) scaled onto the ranks, so
// owners are contiguous, ascending ranges of the hash space.
struct HashPrefixOwner {
  template <class Key>
  int operator()(const Key& key, int nranks) const {
    return scale_to_rank(key.prefix64(), nranks);
  }
};

namespace detail {

// One rank owns every key, so the pre-combined records are already the result: routing them to
// itself, merging one run and folding again only copied them (three passes over 1.2M count records
// of a one-rank discover). Same result, contributors and (empty) exchange statistics.
template <class Record, class KeyOf, class Owner>
std::vector<Record> owned_by_one_rank(std::vector<Record> records, KeyOf& key_of, Owner& owner,
                                      Contributors* contributors) {
  for (const Record& r : records)
    if (owner(key_of(r), 1) != 0) throw std::out_of_range("reduce_by_key: owner outside the ranks");
  if (contributors != nullptr) {
    contributors->offsets.resize(records.size() + 1);
    for (std::size_t i = 0; i <= records.size(); ++i) contributors->offsets[i] = i;
    contributors->ranks.assign(records.size(), 0);
  }
  return records;
}

// Sorted by a digest key, the default owner's records form one contiguous range per rank (its
// ranges of the hash space ascend with the key order: prefix64() is leading64()). Records that
// are trivially copyable can then be sent as they lie, as their own bytes between processes of
// one binary, with no copy into buckets (as many fresh pages as the records sent) and no per-field
// encoding, which were most of the count exchange's routing time.
template <class Record, class Key, class Owner>
inline constexpr bool kSentInRanges =
    std::is_same_v<Owner, HashPrefixOwner> && DigestKey<Key> && std::is_trivially_copyable_v<Record>;

// Adds one exchange's traffic to the caller's statistics, if it asked for them.
inline void add_stats(const ShuffleConfig& config, const ExchangeStats& stats) {
  if (config.stats == nullptr) return;
  config.stats->rounds += stats.rounds;
  config.stats->bytes_sent += stats.bytes_sent;
  config.stats->bytes_received += stats.bytes_received;
}

// reduce_by_key's steps 2 and 3 for kSentInRanges records, sorted and folded.
template <class Record, class KeyOf, class Combine>
std::vector<Record> reduce_sorted_ranges(comm::Transport& transport, std::vector<Record> records, KeyOf& key_of,
                                         Combine& combine, const ShuffleConfig& config, Contributors* contributors) {
  const int nranks = transport.size();
  const auto n = static_cast<std::size_t>(nranks);
  const auto me = static_cast<std::size_t>(transport.rank());
  const HashPrefixOwner owner;
  // Rank d owns records [first[d], first[d + 1]).
  std::vector<std::size_t> first(n + 1, records.size());
  first[0] = 0;
  for (std::size_t d = 1; d < n; ++d) {
    const auto below = [&](const Record& r) { return static_cast<std::size_t>(owner(key_of(r), nranks)) < d; };
    first[d] = static_cast<std::size_t>(
        std::partition_point(records.begin() + static_cast<std::ptrdiff_t>(first[d - 1]), records.end(), below) -
        records.begin());
  }
  std::vector<std::uint64_t> per_dest(n);
  std::vector<std::span<const std::byte>> send(n);
  for (std::size_t d = 0; d < n; ++d) {
    per_dest[d] = first[d + 1] - first[d];
    if (per_dest[d] != 0 && (owner(key_of(records[first[d]]), nranks) != static_cast<int>(d) ||
                             owner(key_of(records[first[d + 1] - 1]), nranks) != static_cast<int>(d)))
      throw std::logic_error("reduce_by_key: owner ranges out of key order");
    if (d != me) send[d] = std::as_bytes(std::span<const Record>(records).subspan(first[d], per_dest[d]));
  }
  const std::vector<std::uint64_t> incoming = comm::alltoall(transport, per_dest);
  std::vector<std::vector<Record>> runs = announced_runs<Record>(incoming, me);
  const ExchangeStats stats =
      exchange_in_place(transport, send, sizeof(Record), config.round_bytes, [&](int source, std::span<const std::byte> bytes) {
        auto& run = runs[static_cast<std::size_t>(source)];
        check_room(run, incoming[static_cast<std::size_t>(source)], bytes.size() / sizeof(Record));
        const std::size_t at = run.size();
        run.resize(at + bytes.size() / sizeof(Record));  // within the announced, prefaulted capacity
        std::memcpy(static_cast<void*>(run.data() + at), bytes.data(), bytes.size());
      });
  // This rank's own range stays in its vector: what follows it is dropped, what precedes it moved over.
  records.erase(records.begin() + static_cast<std::ptrdiff_t>(first[me + 1]), records.end());
  records.erase(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(first[me]));
  runs[me] = std::move(records);
  check_all_arrived(runs, incoming);
  add_stats(config, stats);
  return merge_runs(runs, key_of, combine, contributors);
}

// Receives every other source's run into runs[source], decoding each record from its field list:
// fixed-size records a source's whole round at a time, framed ones one by one.
template <class Record>
ExchangeStats receive_runs(comm::Transport& transport, Buckets& buckets, std::size_t round_bytes,
                           const std::vector<std::uint64_t>& incoming, std::vector<std::vector<Record>>& runs) {
  constexpr std::size_t kFixed = fixed_encoded_size<Record>();
  if constexpr (kFixed != 0) {
    return exchange_fixed(transport, buckets, round_bytes, [&](int source, std::span<const std::byte> bytes) {
      const auto s = static_cast<std::size_t>(source);
      auto& run = runs[s];
      const std::size_t count = bytes.size() / kFixed;  // exchange_fixed gives whole records
      check_room(run, incoming[s], count);
      for (std::size_t k = 0; k < count; ++k) {
        ByteReader reader(bytes.subspan(k * kFixed, kFixed));
        read_value(reader, run.emplace_back());
      }
    });
  } else {
    return exchange(transport, buckets, round_bytes, [&](int source, std::span<const std::byte> bytes) {
      const auto s = static_cast<std::size_t>(source);
      auto& run = runs[s];
      check_room(run, incoming[s], 1);
      ByteReader reader(bytes);
      read_value(reader, run.emplace_back());
      if (!reader.done()) throw std::runtime_error("reduce_by_key: record longer than its fields");
    });
  }
}

}  // namespace detail

// combine(Record& into, Record& from) folds `from` (which is discarded afterwards) into `into`;
// key_of(const Record&) returns a key with < and ==; owner(key, nranks) returns a rank. Returns
// this rank's owned results, ascending by key; `contributors`, if given, is filled parallel.
template <class Record, class KeyOf, class Owner, class Combine>
std::vector<Record> reduce_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of, Owner owner,
                                  Combine combine, const ShuffleConfig& config, Contributors* contributors = nullptr) {
  detail::sort_by_key(records, key_of);
  detail::fold_sorted(records, key_of, combine, [](const Record&, const Record&) {});

  const int nranks = transport.size();
  if (nranks == 1) return detail::owned_by_one_rank(std::move(records), key_of, owner, contributors);
  using Key = std::remove_cvref_t<decltype(key_of(records.front()))>;
  if constexpr (detail::kSentInRanges<Record, Key, Owner>)
    return detail::reduce_sorted_ranges(transport, std::move(records), key_of, combine, config, contributors);
  const auto me = static_cast<std::size_t>(transport.rank());
  Buckets buckets(nranks, fixed_encoded_size<Record>());
  detail::Routes routes = detail::route_records(records, key_of, owner, nranks, me, buckets);
  const std::vector<std::uint64_t> incoming = comm::alltoall(transport, routes.per_dest);
  std::vector<std::vector<Record>> runs = detail::announced_runs<Record>(incoming, me);
  detail::fill_buckets(records, routes, buckets, me);
  runs[me] = std::move(records);
  const ExchangeStats stats = detail::receive_runs(transport, buckets, config.round_bytes, incoming, runs);
  detail::check_all_arrived(runs, incoming);
  detail::add_stats(config, stats);
  return detail::merge_runs(runs, key_of, combine, contributors);
}

// The same with the default owner (the key's hash prefix).
template <class Record, class KeyOf, class Combine>
std::vector<Record> reduce_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of,
                                  Combine combine, const ShuffleConfig& config) {
  return reduce_by_key(transport, std::move(records), key_of, HashPrefixOwner{}, combine, config);
}
// group_by_key: for list-valued records (a key and a std::vector field `list`). Each owned key
// comes back once with the lists of all its records concatenated and sorted (duplicates kept),
// so the result is the same for any rank count and input order.
template <class Record, class KeyOf, class Owner, class Value>
std::vector<Record> group_by_key(comm::Transport& transport, std::vector<Record> records, KeyOf key_of, Owner owner,
                                 std::vector<Value> Record::*list, const ShuffleConfig& config) {
  auto rows = reduce_by_key(
      transport, std::move(records), key_of, owner,
      [list](Record& into, Record& from) {
        auto& to = into.*list;
        auto& more = from.*list;
        to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
      },
      config);
  for (Record& r : rows) std::sort((r.*list).begin(), (r.*list).end());
  return rows;
}

}  // namespace crd::shuffle
