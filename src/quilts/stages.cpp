// crd quilts' five exchanges (stages.hpp).
#include "crd/quilts/stages.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <utility>

#include "crd/base/uint128.hpp"

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

const auto by_gram = [](std::uint64_t gram, int nranks) { return owner_of_key(gram, nranks); };

}  // namespace

int owner_of_key(std::uint64_t key, int nranks) { return scale_to_rank(key, nranks); }

std::vector<Document> own_documents(comm::Transport& transport, std::vector<Document> local,
                                    const shuffle::ShuffleConfig& config) {
  return shuffle::reduce_by_key(
      transport, std::move(local), [](const Document& d) { return d.id; }, owner_of_key,
      [](Document& into, Document& from) {
        if (into.url != from.url) {  // one id, two URLs: both are dropped; keep the smaller URL to report
          into.collided = 1;
          if (from.url < into.url) into.url = std::move(from.url);
        }
        into.collided |= from.collided;
        std::vector<std::uint64_t> both;
        both.reserve(into.grams.size() + from.grams.size());
        std::set_union(into.grams.begin(), into.grams.end(), from.grams.begin(), from.grams.end(),
                       std::back_inserter(both));
        into.grams = std::move(both);
      },
      config);
}

std::vector<Holding> patch_postings(comm::Transport& transport, const std::vector<Document>& owned, std::uint32_t max_m,
                                    const shuffle::ShuffleConfig& config) {
  // 2. Document frequencies; the contributors say which ranks to answer.
  std::vector<GramCount> counts;
  for (const auto& d : owned)
    if (!d.collided)
      for (const auto g : d.grams) counts.push_back({g, 1});
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
  std::vector<std::uint64_t> candidates;  // ascending: the keys come back sorted by (rank, gram)
  candidates.reserve(mine.size());
  for (const auto& r : mine) candidates.push_back(r.gram);

  // 4. Posting lists of the candidate grams.
  std::vector<Holding> lists;
  for (const auto& d : owned) {
    if (d.collided) continue;
    auto at = candidates.begin();
    for (const auto g : d.grams) {
      at = std::lower_bound(at, candidates.end(), g);
      if (at == candidates.end()) break;
      if (*at == g) lists.push_back({g, d.id, d.server});
    }
  }
  // Flat records keyed (gram, doc), unique, so nothing combines: no list per record to allocate.
  return shuffle::reduce_by_key(
      transport, std::move(lists), [](const Holding& h) { return std::pair(h.gram, h.doc); },
      [](const std::pair<std::uint64_t, std::uint64_t>& key, int nranks) { return owner_of_key(key.first, nranks); },
      [](Holding&, const Holding&) {}, config);
}

std::vector<Mention> mentions_by_document(comm::Transport& transport, std::vector<Holding> holdings,
                                          const shuffle::ShuffleConfig& config) {
  std::vector<std::size_t> runs{0};  // a gram's posting list: holdings[runs[i] .. runs[i + 1])
  std::size_t n = 0;
  for (std::size_t i = 1; i <= holdings.size(); ++i)
    if (i == holdings.size() || holdings[i].gram != holdings[i - 1].gram) {
      const std::size_t df = i - runs.back();
      n += df * (df - 1);
      runs.push_back(i);
    }
  std::vector<Mention> out;
  out.reserve(n);
  for (std::size_t r = 0; r + 1 < runs.size(); ++r) {
    const auto df = static_cast<std::uint32_t>(runs[r + 1] - runs[r]);
    for (std::size_t a = runs[r]; a < runs[r + 1]; ++a)
      for (std::size_t b = runs[r]; b < runs[r + 1]; ++b)
        if (a != b) out.push_back({holdings[a].doc, holdings[a].gram, holdings[b].doc, holdings[b].server, df});
  }
  std::vector<Holding>().swap(holdings);
  // Keys are unique (a document holds a gram once), so nothing combines; the key orders each
  // owner's result by document, then gram.
  return shuffle::reduce_by_key(
      transport, std::move(out), [](const Mention& m) { return std::tuple(m.doc, m.gram, m.other); },
      [](const std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>& key, int nranks) {
        return owner_of_key(std::get<0>(key), nranks);
      },
      [](Mention&, const Mention&) {}, config);
}

}  // namespace crd::quilts
