// Bucket entries to their owners, and their members' sketches fetched once per rank (see buckets.hpp).
#include "buckets.hpp"

#include <algorithm>
#include <stdexcept>

#include "crd/base/heap_bytes.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/neardup/clusters.hpp"

namespace crd::neardup {
namespace {

// A bucket entry: the bucket and an identity set's id. It is its own key (a set has one entry per
// position, so no two are equal), so an owner gets its entries ascending by bucket, then id.
struct Entry {
  BucketKey key;
  std::uint64_t id = 0;
  static constexpr auto fields() { return std::tuple(&Entry::key, &Entry::id); }
  auto operator<=>(const Entry&) const = default;
};

// A rank asking the owner of set `id` for its sketch.
struct Request {
  std::uint64_t id = 0;
  std::int32_t from = 0;
  static constexpr auto fields() { return std::tuple(&Request::id, &Request::from); }
  auto operator<=>(const Request&) const = default;
};

// The owner's answer: the set's representative key and sketch, on its way to rank `to`.
struct Reply {
  std::int32_t to = 0;
  Member member;
  static constexpr auto fields() { return std::tuple(&Reply::to, &Reply::member); }
};

struct ReplyKey {
  std::int32_t to = 0;
  std::uint64_t id = 0;
  auto operator<=>(const ReplyKey&) const = default;
};

std::uint64_t member_bytes(const std::string& page, const Sketch& sketch) {
  return sizeof(Reply) + heap_bytes(page) + sketch_bytes(sketch);
}

// Collective: the sketches of `wanted` (ascending set ids) from their sets' owners, ascending by id.
std::vector<Member> fetch_sketches(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                                   const std::vector<std::uint64_t>& offsets, const std::vector<std::uint64_t>& wanted,
                                   std::uint64_t held, const shuffle::ShuffleConfig& config,
                                   const std::function<void(std::uint64_t)>& before_fetching) {
  const int nranks = transport.size();
  const std::uint64_t first = offsets[static_cast<std::size_t>(transport.rank())];
  const IdOwner id_owner{&offsets};
  std::vector<Request> requests;
  requests.reserve(wanted.size());
  for (const std::uint64_t id : wanted) requests.push_back({id, transport.rank()});
  requests = shuffle::reduce_by_key(
      transport, std::move(requests), [](const Request& r) { return r; },
      [id_owner](const Request& r, int n) { return id_owner(r.id, n); }, [](Request&, const Request&) {}, config);
  // The replies' bytes to each rank, so that every rank knows what it will receive before any is sent.
  std::vector<std::uint64_t> to_each(static_cast<std::size_t>(nranks), 0);
  std::uint64_t sent = 0;
  for (const Request& r : requests) {
    const SketchedPage& s = sets[r.id - first];
    const std::uint64_t bytes = member_bytes(s.pages.front(), s.sketch);
    to_each[static_cast<std::size_t>(r.from)] += bytes;
    sent += bytes;
  }
  // What each rank will receive, before any reply is sent. Replies to this rank itself skip the
  // codec; the others are encoded into the send buckets and decoded where they arrive.
  const auto me = static_cast<std::size_t>(transport.rank());
  const std::vector<std::uint64_t> from_each = comm::alltoall(transport, to_each);
  std::uint64_t encoded = 0, received = 0;
  for (std::size_t r = 0; r < from_each.size(); ++r) {
    if (r == me) continue;
    encoded += to_each[r];
    received += from_each[r];
  }
  // The replies, their encoded copies, what arrives, and the merged records moved into the table.
  if (before_fetching)
    before_fetching(held + requests.capacity() * sizeof(Request) + sent + encoded + received +
                    wanted.size() * (sizeof(Reply) + sizeof(Member)));
  std::vector<Reply> replies;
  replies.reserve(requests.size());
  for (const Request& r : requests) {
    const SketchedPage& s = sets[r.id - first];
    replies.push_back({r.from, Member{s.pages.front(), s.sketch, r.id}});
  }
  requests = {};
  replies = shuffle::reduce_by_key(
      transport, std::move(replies),
      [](const Reply& r) {
        return ReplyKey{r.to, r.member.id};
      },
      [](const ReplyKey& k, int) { return static_cast<int>(k.to); }, [](Reply&, const Reply&) {}, config);
  std::vector<Member> out;
  out.reserve(replies.size());
  for (Reply& r : replies) out.push_back(std::move(r.member));
  return out;
}

}  // namespace

std::uint32_t bucket_count(const Sketch& sketch, const PairRules& rules) {
  if (sketch.super.empty()) return 0;  // no tokens, or too short: nothing to compare
  return rules.method == Method::SimHash ? static_cast<std::uint32_t>(sketch.bits.size() * 64 / rules.piece_bits)
                                         : static_cast<std::uint32_t>(sketch.super.size());
}

std::uint64_t bucket_value(const Sketch& s, std::uint32_t i, const PairRules& rules) {
  return rules.method == Method::SimHash ? simhash_piece(s, i, rules.piece_bits) : s.super[i];
}

std::uint64_t sketch_bytes(const Sketch& s) { return (s.super.capacity() + s.bits.capacity()) * sizeof(std::uint64_t); }

std::uint64_t entry_bytes() { return sizeof(Entry); }

std::uint64_t BucketTable::held_bytes() const {
  std::uint64_t bytes = buckets.capacity() * sizeof(Bucket) + slots.capacity() * sizeof(const Member*) +
                        capped.capacity() * sizeof(BucketKey);
  for (const Member& m : sketches) bytes += sizeof(Member) + heap_bytes(m.page) + sketch_bytes(m.sketch);
  return bytes;
}

BucketTable gather_buckets(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                           const std::vector<std::uint64_t>& offsets, const PairRules& rules, bool with_capped,
                           const shuffle::ShuffleConfig& config, BucketCaps& caps,
                           const std::function<void(std::uint64_t)>& before_fetching) {
  const std::uint64_t first = offsets[static_cast<std::size_t>(transport.rank())];
  std::vector<Entry> entries;
  {
    std::size_t n = 0;
    for (const SketchedPage& s : sets) n += bucket_count(s.sketch, rules);
    entries.reserve(n);
  }
  for (std::size_t k = 0; k < sets.size(); ++k)
    for (std::uint32_t i = 0; i < bucket_count(sets[k].sketch, rules); ++i)
      entries.push_back({{bucket_value(sets[k].sketch, i, rules), i}, first + k});
  entries = shuffle::reduce_by_key(
      transport, std::move(entries), [](const Entry& e) { return e; },
      [](const Entry& e, int nranks) { return bucket_owner(e.key, nranks); }, [](Entry&, const Entry&) {}, config);

  // Buckets are runs of equal keys. Only those that compare anything keep their entries.
  BucketTable table;
  table.entries = entries.size();
  std::size_t kept = 0;
  for (std::size_t from = 0; from < entries.size();) {
    std::size_t to = from + 1;
    while (to < entries.size() && entries[to].key == entries[from].key) ++to;
    const std::uint64_t n = to - from;
    table.largest = std::max(table.largest, n);
    if (n > rules.max_bucket) {
      table.capped.push_back(entries[from].key);
      ++caps.buckets;
      caps.pages += n;
      caps.pairs += n * (n - 1) / 2;
    }
    if (n >= 2 && (n <= rules.max_bucket || with_capped))
      for (std::size_t x = from; x < to; ++x) entries[kept++] = entries[x];
    from = to;
  }
  entries.resize(kept);
  std::vector<std::uint64_t> wanted;
  wanted.reserve(entries.size());
  for (const Entry& e : entries) wanted.push_back(e.id);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  // What stays through the fetch: the entries, the ids wanted, and the slots made after it.
  const std::uint64_t held =
      entries.capacity() * (sizeof(Entry) + sizeof(const Member*)) + wanted.capacity() * sizeof(std::uint64_t);
  table.sketches = fetch_sketches(transport, sets, offsets, wanted, held, config, before_fetching);
  wanted = {};

  table.slots.reserve(entries.size());
  for (const Entry& e : entries) {
    const auto at = std::lower_bound(table.sketches.begin(), table.sketches.end(), e.id,
                                     [](const Member& m, std::uint64_t id) { return m.id < id; });
    if (at == table.sketches.end() || at->id != e.id) throw std::logic_error("gather_buckets: a sketch did not arrive");
    table.slots.push_back(&*at);
  }
  for (std::size_t from = 0; from < entries.size();) {
    std::size_t to = from + 1;
    while (to < entries.size() && entries[to].key == entries[from].key) ++to;
    const auto begin = table.slots.begin() + static_cast<std::ptrdiff_t>(from);
    const auto end = table.slots.begin() + static_cast<std::ptrdiff_t>(to);
    std::sort(begin, end,
              [](const Member* a, const Member* b) { return std::tie(a->page, a->id) < std::tie(b->page, b->id); });
    table.buckets.push_back({entries[from].key, std::span<const Member* const>(&*begin, to - from)});
    from = to;
  }
  return table;
}

}  // namespace crd::neardup
