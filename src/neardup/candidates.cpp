// Identity sets, bucket routing and pair finding for crd neardup (see candidates.hpp).
#include "crd/neardup/candidates.hpp"

#include <algorithm>
#include <string_view>

#include "crd/base/uint128.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/text/fingerprint.hpp"
#include "site.hpp"

namespace crd::neardup {
namespace {

// A bucket: which sketch position (supershingle j or simhash piece p) and its value there.
struct BucketKey {
  std::uint64_t value = 0;
  std::uint32_t index = 0;
  static constexpr auto fields() { return std::tuple(&BucketKey::value, &BucketKey::index); }
  auto operator<=>(const BucketKey&) const = default;
};

// A representative as it travels to a bucket's owner: its key and whole sketch.
struct Member {
  std::string page;
  Sketch sketch;
  static constexpr auto fields() { return std::tuple(&Member::page, &Member::sketch); }
  bool operator<(const Member& other) const { return page < other.page; }
};

struct BucketRecord {
  BucketKey key;
  std::vector<Member> members;
  static constexpr auto fields() { return std::tuple(&BucketRecord::key, &BucketRecord::members); }
};

// Owners spread by a mix of the key: bucket values are not uniform in their leading bits, so
// they are hashed before scaling onto the ranks.
constexpr auto bucket_owner = [](const BucketKey& k, int nranks) {
  return scale_to_rank(text::mix64(k.value ^ text::mix64(k.index)), nranks);
};

// The buckets a set is routed to: one per supershingle, or one per simhash piece (Alg. C).
std::uint32_t bucket_count(const Sketch& sketch, const PairRules& rules) {
  if (sketch.super.empty()) return 0;  // no tokens: nothing to compare
  return rules.method == Method::SimHash ? static_cast<std::uint32_t>(sketch.bits.size() * 64 / rules.piece_bits)
                                         : static_cast<std::uint32_t>(sketch.super.size());
}

std::uint64_t sketch_bytes(const Sketch& s) { return (s.super.capacity() + s.bits.capacity()) * sizeof(std::uint64_t); }

// The value a sketch has at bucket position i: supershingle i, or simhash piece i (Alg. C).
std::uint64_t bucket_value(const Sketch& s, std::uint32_t i, const PairRules& rules) {
  return rules.method == Method::SimHash ? simhash_piece(s, i, rules.piece_bits) : s.super[i];
}

// Whether two members of bucket position `index` share an earlier bucket that is not capped
// (`capped` sorted): the pair is kept there, not here.
bool kept_earlier(const Sketch& a, const Sketch& b, std::uint32_t index, const PairRules& rules,
                  const std::vector<BucketKey>& capped) {
  for (std::uint32_t i = 0; i < index; ++i) {
    const std::uint64_t value = bucket_value(a, i, rules);
    if (value == bucket_value(b, i, rules) && !std::binary_search(capped.begin(), capped.end(), BucketKey{value, i}))
      return true;
  }
  return false;
}

}  // namespace

std::uint64_t held_bytes(const SketchedPage& page) {
  std::uint64_t bytes = sizeof(SketchedPage) + sketch_bytes(page.sketch);
  for (const std::string& p : page.pages) bytes += sizeof(std::string) + p.capacity();
  return bytes;
}

std::uint64_t bucket_entries_bytes(const SketchedPage& set, const PairRules& rules) {
  const std::uint64_t entry =
      sizeof(BucketRecord) + sizeof(Member) + set.pages.front().capacity() + sketch_bytes(set.sketch);
  return bucket_count(set.sketch, rules) * entry;
}

std::uint64_t held_bytes(const PairRow& pair) { return sizeof(PairRow) + heap_bytes(pair.page_a) + heap_bytes(pair.page_b); }


bool accepted(const PairRules& rules, std::uint32_t b_sim, std::uint32_t c_sim) {
  switch (rules.method) {
    case Method::MinHash: return b_sim >= rules.min_b_similarity;
    case Method::SimHash: return c_sim >= rules.min_c_similarity;
    case Method::Combined: return b_sim >= rules.min_b_similarity && c_sim >= rules.combined_c_similarity;
  }
  return false;
}

std::vector<SketchedPage> group_identical(comm::Transport& transport, std::vector<SketchedPage> pages,
                                          const shuffle::ShuffleConfig& config) {
  auto sets = shuffle::reduce_by_key(
      transport, std::move(pages), [](const SketchedPage& p) -> const Digest& { return p.identity; },
      shuffle::HashPrefixOwner{},
      [](SketchedPage& into, SketchedPage& from) {
        // Equal token sequences have equal sketches: only the page lists merge.
        into.pages.insert(into.pages.end(), std::make_move_iterator(from.pages.begin()),
                          std::make_move_iterator(from.pages.end()));
      },
      config);
  for (SketchedPage& s : sets) std::sort(s.pages.begin(), s.pages.end());
  return sets;
}

std::vector<IdentityRow> identity_rows(const std::vector<SketchedPage>& sets) {
  std::vector<IdentityRow> rows;
  for (const SketchedPage& s : sets)
    for (std::size_t i = 1; i < s.pages.size(); ++i) rows.push_back({s.pages[i], s.pages[0]});
  std::sort(rows.begin(), rows.end(), FieldLess{});
  return rows;
}

std::vector<PairRow> find_pairs(comm::Transport& transport, const std::vector<SketchedPage>& sets,
                                const PairRules& rules, const shuffle::ShuffleConfig& config, BucketCaps& caps,
                                const std::function<void(const PairVolume&)>& before_comparing) {
  std::vector<BucketRecord> entries;
  for (const SketchedPage& s : sets) {
    const std::uint32_t positions = bucket_count(s.sketch, rules);
    for (std::uint32_t i = 0; i < positions; ++i)
      entries.push_back({{bucket_value(s.sketch, i, rules), i}, {Member{s.pages.front(), s.sketch}}});
  }
  const auto buckets = shuffle::group_by_key(
      transport, std::move(entries), [](const BucketRecord& r) { return r.key; }, bucket_owner,
      &BucketRecord::members, config);

  // Every rank's capped buckets, sorted: a pair is kept in the first bucket it shares that is not one.
  std::vector<BucketKey> capped;
  for (const BucketRecord& bucket : buckets) {
    const std::uint64_t n = bucket.members.size();
    if (n <= rules.max_bucket) continue;
    capped.push_back(bucket.key);
    ++caps.buckets;
    caps.pages += n;
    caps.pairs += n * (n - 1) / 2;
  }
  std::vector<BucketKey> all_capped;
  for (auto& part : comm::allgather(transport, capped)) all_capped.insert(all_capped.end(), part.begin(), part.end());
  std::sort(all_capped.begin(), all_capped.end());
  capped.clear();

  // Calls emit(a, b, b_sim, c_sim) for every pair this rank keeps.
  const auto compare = [&](auto&& emit) {
    for (const BucketRecord& bucket : buckets) {
      const std::uint64_t n = bucket.members.size();
      if (n < 2 || n > rules.max_bucket) continue;
      for (std::size_t x = 0; x < n; ++x) {
        for (std::size_t y = x + 1; y < n; ++y) {
          const Member& a = bucket.members[x];
          const Member& b = bucket.members[y];
          const std::uint32_t b_sim = b_similarity(a.sketch, b.sketch);
          const std::uint32_t c_sim = c_similarity(a.sketch, b.sketch);
          if (!accepted(rules, b_sim, c_sim)) continue;
          if (kept_earlier(a.sketch, b.sketch, bucket.key.index, rules, all_capped)) continue;
          emit(a, b, b_sim, c_sim);
        }
      }
    }
  };
  if (before_comparing) {
    PairVolume volume;
    for (const BucketRecord& bucket : buckets)
      for (const Member& m : bucket.members) volume.bucket_bytes += sizeof(Member) + m.page.capacity() + sketch_bytes(m.sketch);
    volume.bucket_bytes += buckets.capacity() * sizeof(BucketRecord);
    compare([&](const Member& a, const Member& b, std::uint32_t, std::uint32_t) {
      ++volume.pairs;
      volume.key_bytes += heap_bytes(a.page) + heap_bytes(b.page);
    });
    before_comparing(volume);
  }
  std::vector<PairRow> pairs;
  compare([&](const Member& a, const Member& b, std::uint32_t b_sim, std::uint32_t c_sim) {
    pairs.push_back({a.page, b.page, b_sim, c_sim, static_cast<std::uint8_t>(same_site(a.page, b.page))});
  });
  return pairs;
}

}  // namespace crd::neardup
