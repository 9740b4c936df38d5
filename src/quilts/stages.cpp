// crd quilts' six exchanges (stages.hpp).
#include "stages.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <utility>

#include "crd/base/uint128.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/shuffle/reduce_post_phase.hpp"
#include "radix_sort.hpp"

namespace crd::quilts {
namespace {

struct GramCount {
  std::uint64_t gram = 0;
  std::uint64_t df = 0;
  static constexpr auto fields() { return std::tuple(&GramCount::gram, &GramCount::df); }
};

// A candidate patch gram, addressed to a rank that holds it.
struct RankGram {
  std::uint32_t rank = 0;
  std::uint64_t gram = 0;
  auto operator<=>(const RankGram&) const = default;
  static constexpr auto fields() { return std::tuple(&RankGram::rank, &RankGram::gram); }
};

const auto by_gram = [](std::uint64_t gram, int nranks) { return gram_owner(gram, nranks); };

// The smallest gram of slice `index` of `count` (index < count).
std::uint64_t slice_start(std::uint64_t index, std::uint64_t count) {
  // The least leading-32-bit value h with h·count >> 32 ≥ index: ⌈index·2³² / count⌉.
  const std::uint64_t h = ((index << 32) + count - 1) / count;
  return h << 32;
}

// Stage 4's test of a pass's grams against the candidates (a few thousand beside a million grams):
// open addressing over their uniform hashes, where a binary search per gram was 13 % of a run.
// A bit per 8 slots' worth of grams (bits 20 and up of the gram: the slice fixes the leading ones)
// answers most grams from the first cache level; the table, a quarter full, the rest.
class CandidateSet {
 public:
  explicit CandidateSet(const std::vector<std::uint64_t>& grams) {
    std::size_t size = 64;
    while (size < 4 * grams.size()) size *= 2;
    mask_ = size - 1;
    slots_.assign(size, 0);
    bits_.assign(size / 32, 0);  // 2·size bits: 8 per candidate
    for (const auto g : grams) {
      const std::size_t b = bit(g);
      bits_[b / 64] |= std::uint64_t{1} << (b % 64);
      if (g == 0) {
        zero_ = true;
        continue;
      }
      std::size_t i = g & mask_;
      while (slots_[i] != 0 && slots_[i] != g) i = (i + 1) & mask_;
      slots_[i] = g;
    }
  }
  bool contains(std::uint64_t g) const {
    const std::size_t b = bit(g);
    if ((bits_[b / 64] >> (b % 64) & 1) == 0) return false;
    if (g == 0) return zero_;
    for (std::size_t i = g & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == g) return true;
      if (slots_[i] == 0) return false;
    }
  }

 private:
  std::size_t bit(std::uint64_t g) const { return static_cast<std::size_t>(g >> 20) & (2 * mask_ + 1); }
  std::vector<std::uint64_t> slots_;  // 0: empty (the gram 0 is zero_)
  std::vector<std::uint64_t> bits_;
  std::size_t mask_ = 0;
  bool zero_ = false;
};

}  // namespace

int owner_of_key(std::uint64_t key, int nranks) { return scale_to_rank(key, nranks); }
int gram_owner(std::uint64_t gram, int nranks) { return scale_to_rank(gram << 32 | gram >> 32, nranks); }

std::optional<std::uint64_t> GramSlice::end() const {
  if (index + 1 >= count) return std::nullopt;
  return slice_start(index + 1, count);
}

SliceWalk::SliceWalk(const std::vector<Document>& docs, std::uint32_t count)
    : docs_(docs), slice_{0, count}, at_(docs.size(), 0), ranges_(docs.size()) {}

const std::vector<std::span<const std::uint64_t>>& SliceWalk::next() {
  const std::optional<std::uint64_t> last = slice_.end();
  for (std::size_t i = 0; i < docs_.size(); ++i) {
    const auto& grams = docs_[i].grams;
    std::size_t end = at_[i];
    if (!docs_[i].collided) {
      if (!last) {
        end = grams.size();
      } else {  // galloping from the cursor: a pass's range is short beside the set
        std::size_t step = 1;
        std::size_t below = end;  // grams[.. below) < *last
        while (below + step <= grams.size() && grams[below + step - 1] < *last) {
          below += step;
          step *= 2;
        }
        const auto upper = grams.begin() + static_cast<std::ptrdiff_t>(std::min(below + step, grams.size()));
        end = static_cast<std::size_t>(std::lower_bound(grams.begin() + static_cast<std::ptrdiff_t>(below), upper, *last) -
                                       grams.begin());
      }
    }
    ranges_[i] = std::span<const std::uint64_t>(grams).subspan(at_[i], end - at_[i]);
    at_[i] = end;
  }
  ++slice_.index;
  return ranges_;
}

namespace {

// Records of one URL are one document; one id with two URLs: both are dropped (collided), the
// smaller URL kept to report. Associative and commutative, so any batching gives the same.
void unite(Document& into, Document& from) {
  if (into.url != from.url) {
    into.collided = 1;
    if (from.url < into.url) into.url = std::move(from.url);
  }
  into.collided |= from.collided;
  std::vector<std::uint64_t> both;
  both.reserve(into.grams.size() + from.grams.size());
  std::set_union(into.grams.begin(), into.grams.end(), from.grams.begin(), from.grams.end(), std::back_inserter(both));
  into.grams = std::move(both);
}

}  // namespace

std::vector<Document> own_documents(comm::Transport& transport, std::vector<Document> local,
                                    const shuffle::ShuffleConfig& config, std::uint64_t batch_bytes) {
  const auto id = [](const Document& d) { return d.id; };
  if (transport.size() == 1) return shuffle::reduce_by_key(transport, std::move(local), id, owner_of_key, unite, config);
  // Batch b: local[starts[b] .. starts[b + 1]); every rank makes as many calls as the busiest.
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0, bytes = 0; i < local.size(); ++i) {
    bytes += local[i].grams.size() * sizeof(std::uint64_t) + local[i].url.size();
    if (bytes >= batch_bytes || i + 1 == local.size()) {
      starts.push_back(i + 1);
      bytes = 0;
    }
  }
  const std::uint64_t batches = comm::max(transport, std::uint64_t{starts.size() - 1});
  std::vector<std::vector<Document>> runs;  // each batch's owned documents, ascending by id
  for (std::uint64_t b = 0; b < batches; ++b) {
    std::vector<Document> batch;
    if (b + 1 < starts.size())
      batch.assign(std::make_move_iterator(local.begin() + static_cast<std::ptrdiff_t>(starts[b])),
                   std::make_move_iterator(local.begin() + static_cast<std::ptrdiff_t>(starts[b + 1])));
    runs.push_back(shuffle::reduce_by_key(transport, std::move(batch), id, owner_of_key, unite, config));
  }
  std::vector<Document>().swap(local);
  // A URL in two batches is in two runs: merged, its records are united.
  return shuffle::merge_sorted_runs(std::move(runs), id, unite);
}

std::vector<Holding> patch_postings(comm::Transport& transport, const std::vector<Document>& owned, std::uint32_t max_m,
                                    const shuffle::ShuffleConfig& config) {
  return patch_postings(transport, owned, SliceWalk(owned, 1).next(), max_m, config);
}

std::vector<Holding> patch_postings(comm::Transport& transport, const std::vector<Document>& owned,
                                    const std::vector<std::span<const std::uint64_t>>& ranges, std::uint32_t max_m,
                                    const shuffle::ShuffleConfig& config) {
  // 2. Document frequencies; the contributors say which ranks to answer.
  // Pre-combined here (sorted, runs folded), so reduce_by_key neither sorts nor folds them again.
  std::size_t total = 0;
  for (const auto& r : ranges) total += r.size();
  std::vector<std::uint64_t> held;
  held.reserve(total);
  for (const auto& r : ranges) held.insert(held.end(), r.begin(), r.end());
  radix_sort_by(held, [](std::uint64_t g) { return g; });
  std::vector<GramCount> counts;
  for (std::size_t i = 0; i < held.size(); ++i) {
    if (i == 0 || held[i] != held[i - 1]) counts.push_back({held[i], 0});
    ++counts.back().df;
  }
  std::vector<std::uint64_t>().swap(held);
  shuffle::Contributors from;
  const auto df = shuffle::reduce_by_key(
      transport, std::move(counts), [](const GramCount& r) { return r.gram; }, by_gram,
      [](GramCount& into, const GramCount& more) { into.df += more.df; }, config, &from);

  // 3. Candidate patch grams back to the ranks holding them.
  std::vector<RankGram> answers;
  for (std::size_t i = 0; i < df.size(); ++i)
    if (df[i].df >= 2 && df[i].df <= max_m)
      for (std::uint64_t j = from.offsets[i]; j < from.offsets[i + 1]; ++j) answers.push_back({from.ranks[j], df[i].gram});
  const auto mine = shuffle::reduce_by_key(
      transport, std::move(answers), [](const RankGram& r) { return r; },
      [](const RankGram& key, int) { return static_cast<int>(key.rank); }, [](RankGram&, const RankGram&) {}, config);
  std::vector<std::uint64_t> candidates;
  candidates.reserve(mine.size());
  for (const auto& r : mine) candidates.push_back(r.gram);
  const CandidateSet candidate(candidates);
  std::vector<std::uint64_t>().swap(candidates);

  // 4. Posting lists of the candidate grams.
  std::vector<Holding> lists;
  for (std::size_t i = 0; i < owned.size(); ++i)
    for (const auto g : ranges[i])
      if (candidate.contains(g)) lists.push_back({g, owned[i].id, owned[i].server});
  // Built by ascending document (own_documents' order): a stable sort by gram orders them by
  // (gram, doc), the key below. Flat records keyed (gram, doc), unique, so nothing combines: no
  // list per record to allocate.
  radix_sort_by(lists, [](const Holding& h) { return h.gram; });
  return shuffle::reduce_by_key(
      transport, std::move(lists), [](const Holding& h) { return std::pair(h.gram, h.doc); },
      [](const std::pair<std::uint64_t, std::uint64_t>& key, int nranks) { return gram_owner(key.first, nranks); },
      [](Holding&, const Holding&) {}, config);
}

std::vector<HolderClass> holder_classes(comm::Transport& transport, std::vector<Holding> holdings,
                                        const shuffle::ShuffleConfig& config) {
  // A gram's posting list: holdings[start .. start + df), its hash beside it.
  struct Run {
    std::uint64_t hash;
    std::size_t start;
    std::uint32_t df;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0, j = 0; i < holdings.size(); i = j) {
    for (j = i + 1; j < holdings.size() && holdings[j].gram == holdings[i].gram;) ++j;
    std::uint64_t h = text::mix64(j - i);
    for (std::size_t k = i; k < j; ++k) h = text::mix64(h ^ holdings[k].doc);
    runs.push_back({h, i, static_cast<std::uint32_t>(j - i)});
  }
  const auto docs_less = [&](const Run& a, const Run& b) {
    return std::lexicographical_compare(
        holdings.begin() + static_cast<std::ptrdiff_t>(a.start),
        holdings.begin() + static_cast<std::ptrdiff_t>(a.start + a.df),
        holdings.begin() + static_cast<std::ptrdiff_t>(b.start), holdings.begin() + static_cast<std::ptrdiff_t>(b.start + b.df),
        [](const Holding& x, const Holding& y) { return x.doc < y.doc; });
  };
  // Equal lists next to each other, each group's runs by gram (stable: the runs came by gram).
  std::stable_sort(runs.begin(), runs.end(), [&](const Run& a, const Run& b) {
    if (a.hash != b.hash) return a.hash < b.hash;
    return docs_less(a, b);
  });
  std::vector<HolderClass> local;
  for (std::size_t i = 0, j = 0; i < runs.size(); i = j) {
    for (j = i + 1; j < runs.size() && runs[j].hash == runs[i].hash && !docs_less(runs[i], runs[j]);) ++j;
    HolderClass c;
    c.hash = runs[i].hash;
    c.holders.reserve(runs[i].df);
    c.servers.reserve(runs[i].df);
    for (std::size_t k = runs[i].start; k < runs[i].start + runs[i].df; ++k) {
      c.holders.push_back(holdings[k].doc);
      c.servers.push_back(holdings[k].server);
    }
    c.first_gram = holdings[runs[i].start].gram;
    c.grams = j - i;
    local.push_back(std::move(c));
  }
  std::vector<Run>().swap(runs);
  std::vector<Holding>().swap(holdings);
  return shuffle::reduce_by_key(
      transport, std::move(local), [](const HolderClass& c) { return std::tie(c.hash, c.holders); },
      [](const auto& key, int nranks) { return owner_of_key(std::get<0>(key), nranks); },
      [](HolderClass& into, const HolderClass& from) {
        into.first_gram = std::min(into.first_gram, from.first_gram);
        into.grams += from.grams;
      },
      config);
}

namespace {

// The ranks owning a holder of `c`, ascending, into `ranks`.
void holder_ranks(const HolderClass& c, int nranks, std::vector<int>& ranks) {
  ranks.clear();
  for (const auto d : c.holders) ranks.push_back(owner_of_key(d, nranks));
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
}

}  // namespace

std::uint64_t members_sent(const std::vector<HolderClass>& classes, int nranks) {
  std::uint64_t sent = 0;
  std::vector<int> ranks;
  for (const auto& c : classes) {
    holder_ranks(c, nranks, ranks);
    sent += c.holders.size() * ranks.size();
  }
  return sent;
}

std::vector<ClassMember> classes_by_document(comm::Transport& transport, const std::vector<HolderClass>& classes,
                                             const shuffle::ShuffleConfig& config) {
  std::vector<ClassMember> out;
  out.reserve(members_sent(classes, transport.size()));  // grown by doubling, it peaked at twice its size
  std::vector<int> ranks;
  for (const auto& c : classes) {
    holder_ranks(c, transport.size(), ranks);
    for (const int r : ranks)
      for (std::size_t i = 0; i < c.holders.size(); ++i)
        out.push_back({static_cast<std::uint32_t>(r), c.first_gram, c.holders[i], c.servers[i], c.grams});
  }
  // Keys are unique (a class lists a holder once, and a gram is in one class), so nothing combines.
  return shuffle::reduce_by_key(
      transport, std::move(out), [](const ClassMember& m) { return std::tuple(m.rank, m.first_gram, m.doc); },
      [](const std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>& key, int) {
        return static_cast<int>(std::get<0>(key));
      },
      [](ClassMember&, const ClassMember&) {}, config);
}

}  // namespace crd::quilts
