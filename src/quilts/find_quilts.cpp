// The quilt search: the exchanges of stages.hpp, each document's covers at its owner over its
// holder classes (one per swept m), the sweep's counts, and the sources' URLs fetched from their owners.
#include "crd/quilts/find_quilts.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "cover.hpp"
#include "crd/base/release_free_memory.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/text/sort_hashes.hpp"
#include "radix_sort.hpp"
#include "stages.hpp"

namespace crd::quilts {
namespace {

// A source to name: the page it covers and how much, gathered at the source's owner.
struct Citation {
  std::string page;
  std::uint64_t covered = 0;
  bool operator<(const Citation& o) const { return page != o.page ? page < o.page : covered < o.covered; }
  static constexpr auto fields() { return std::tuple(&Citation::page, &Citation::covered); }
};
struct CitedSource {
  std::uint64_t doc = 0;
  std::vector<Citation> citations;
  static constexpr auto fields() { return std::tuple(&CitedSource::doc, &CitedSource::citations); }
};

bool is_quilted(std::uint64_t grams, const Cover& cover, std::uint32_t c, double theta) {
  return grams > 0 && static_cast<double>(cover.patch_grams) >= theta * static_cast<double>(grams) &&
         cover.sources.size() >= c;
}

// Two passes' classes, each ascending by (hash, holders), as one: a list in both is one class.
std::vector<HolderClass> merge_classes(std::vector<HolderClass> a, std::vector<HolderClass> b) {
  if (a.empty()) return b;
  std::vector<HolderClass> out;
  out.reserve(a.size() + b.size());
  const auto key = [](const HolderClass& c) { return std::tie(c.hash, c.holders); };
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && key(a[i]) < key(b[j]))) {
      out.push_back(std::move(a[i++]));
    } else if (i == a.size() || key(b[j]) < key(a[i])) {
      out.push_back(std::move(b[j++]));
    } else {
      a[i].first_gram = std::min(a[i].first_gram, b[j].first_gram);
      a[i].grams += b[j++].grams;
      out.push_back(std::move(a[i++]));
    }
  }
  return out;
}

}  // namespace

std::uint64_t held_bytes(const Document& d) {
  return kDocumentBytes + d.url.capacity() + d.grams.capacity() * sizeof(std::uint64_t);
}

std::uint64_t held_bytes(const HolderClass& c) {
  return sizeof(HolderClass) + (c.holders.capacity() + c.servers.capacity()) * sizeof(std::uint64_t);
}

namespace {

// Collective: the passes over the gram space (MemoryPlan), given what passes do not divide (`kept`:
// the documents) and what they do (`divided`).
std::uint32_t plan_passes(comm::Transport& transport, const MemoryPlan& memory, std::uint64_t kept,
                          std::uint64_t divided) {
  if (memory.passes > 0) return memory.passes;
  if (memory.budget != nullptr && memory.budget->budget() != 0)
    return memory.budget->slices(transport, memory.held + kept, divided);
  // Unbudgeted, a pass counts at most kUnbudgetedPassGrams grams a rank. Passes are cheap (a
  // pass's grams are one range of each gram set), and the gram sets fill most of the memory.
  const std::uint64_t room = 2 * kPassBytesPerGram * kUnbudgetedPassGrams;
  return static_cast<std::uint32_t>(comm::max(
      transport, std::clamp<std::uint64_t>((divided + room - 1) / room, 1, shuffle::MemoryBudget::kMaxPasses)));
}

// Collective under a budget: fails on every rank alike unless the step's projected peak fits.
void check_peak(comm::Transport& transport, const MemoryPlan& memory, const std::string& step, std::uint64_t bytes) {
  if (memory.budget != nullptr && memory.budget->budget() != 0)
    memory.budget->check_peak(transport, step, memory.held + bytes);
}

// Stages 2–5 a slice of the grams at a time. A holder list has one owner in every pass, so each
// pass's classes merge into those of the passes before: the classes are those of one pass.
std::vector<HolderClass> classes_in_passes(comm::Transport& transport, const std::vector<Document>& docs,
                                           std::uint32_t max_m, std::uint64_t docs_bytes, std::uint64_t grams,
                                           const shuffle::ShuffleConfig& config, const MemoryPlan& memory,
                                           QuiltResult& result, std::uint64_t& classes_bytes) {
  std::vector<HolderClass> classes;
  SliceWalk slices(docs, result.passes);
  for (std::uint32_t p = 0; p < result.passes; ++p) {
    auto holdings = patch_postings(transport, docs, slices.next(), max_m, config);
    result.counters.add("quilts.holdings", holdings.size());
    classes = merge_classes(std::move(classes), holder_classes(transport, std::move(holdings), config));
    // The pass's tables were freed between the classes that stay. Every 4th pass: giving pages
    // back after each one costs more in page faults than the few MB it saves.
    if (p % 4 == 3) release_free_memory();
    classes_bytes = 0;
    for (const auto& c : classes) classes_bytes += held_bytes(c);
    // The classes stay for the covers; passes do not divide them.
    if (p + 1 < result.passes)
      check_peak(transport, memory, "grouping the holder classes",
                 docs_bytes + classes_bytes + kPassBytesPerGram * grams / result.passes);
  }
  return classes;
}

// The classes this rank's documents are in, as the covers read them.
struct CoverIndex {
  struct Held {
    std::uint64_t doc;
    std::size_t run;
    auto operator<=>(const Held&) const = default;
  };
  std::vector<std::size_t> run_start;           // class r: members[run_start[r] .. run_start[r + 1])
  std::vector<std::uint64_t> run_grams;         // class r's grams (read from members, a miss per class held)
  std::vector<Held> held;                       // (this rank's document, a class's run), ascending
  std::vector<std::uint64_t> candidate_ids;     // every document named by a class here, ascending
  std::vector<std::uint64_t> candidate_server;  // and its server
  // members[i]'s index in candidate_ids: the covers read a class's holders from here, 4 bytes each,
  // not from the 40-byte members (a cache miss into them each would dominate the covers' time).
  std::vector<std::uint32_t> candidate;
};

CoverIndex index_members(const std::vector<ClassMember>& members, comm::Transport& transport) {
  CoverIndex x;
  for (std::size_t i = 0; i < members.size(); ++i)
    if (i == 0 || members[i].first_gram != members[i - 1].first_gram) x.run_start.push_back(i);
  x.run_start.push_back(members.size());
  for (std::size_t r = 0; r + 1 < x.run_start.size(); ++r) x.run_grams.push_back(members[x.run_start[r]].grams);
  for (std::size_t r = 0; r + 1 < x.run_start.size(); ++r)
    for (std::size_t i = x.run_start[r]; i < x.run_start[r + 1]; ++i)
      if (owner_of_key(members[i].doc, transport.size()) == transport.rank()) x.held.push_back({members[i].doc, r});
  radix_sort_by(x.held, [](const CoverIndex::Held& h) { return h.doc; });  // stable: runs stay ascending
  x.candidate_ids.reserve(members.size());
  for (const auto& m : members) x.candidate_ids.push_back(m.doc);
  text::sort_hashes(x.candidate_ids);  // ids are uniform hashes
  x.candidate_ids.erase(std::unique(x.candidate_ids.begin(), x.candidate_ids.end()), x.candidate_ids.end());
  x.candidate_ids.shrink_to_fit();
  x.candidate.resize(members.size());
  x.candidate_server.resize(x.candidate_ids.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    x.candidate[i] = static_cast<std::uint32_t>(
        std::lower_bound(x.candidate_ids.begin(), x.candidate_ids.end(), members[i].doc) - x.candidate_ids.begin());
    x.candidate_server[x.candidate[i]] = members[i].server;
  }
  return x;
}

// Per (m, c, θ) cell of the sweep: quilted pages and their sources.
struct SweepCounts {
  std::vector<std::uint64_t> quilted, source_sum;
  std::uint64_t pages = 0;  // pages covered
};

// Each of this rank's documents covered at every swept m: its page row (at params.m) and the
// sweep's counts; a quilted page's sources are cited, to be named by their owners.
SweepCounts cover_documents(const std::vector<Document>& docs, const std::vector<std::uint64_t>& gram_counts,
                            const CoverIndex& x, const QuiltParams& params, QuiltResult& result,
                            std::vector<CitedSource>& cited) {
  const auto ms = params.m_values();
  const auto cs = params.c_values();
  const auto thetas = params.theta_values();
  const std::size_t pivot_m = static_cast<std::size_t>(std::find(ms.begin(), ms.end(), params.m) - ms.begin());
  const std::size_t cells = ms.size() * cs.size() * thetas.size();
  SweepCounts counts{std::vector<std::uint64_t>(cells, 0), std::vector<std::uint64_t>(cells, 0), 0};
  CoverScratch scratch(x.candidate_ids.size());
  std::vector<HeldClass> mine;
  std::vector<OtherHolder> others;
  std::size_t next = 0;
  for (std::size_t di = 0; di < docs.size(); ++di) {
    const Document& d = docs[di];
    if (d.collided) {
      result.counters.add("quilts.documents.url_hash_collision");
      continue;
    }
    ++counts.pages;
    while (next < x.held.size() && x.held[next].doc < d.id) ++next;
    mine.clear();
    others.clear();
    // d is a candidate of every class it holds; its own index there is left out of the others.
    const auto self = static_cast<std::uint32_t>(
        std::lower_bound(x.candidate_ids.begin(), x.candidate_ids.end(), d.id) - x.candidate_ids.begin());
    for (; next < x.held.size() && x.held[next].doc == d.id; ++next) {
      const std::size_t r = x.held[next].run;
      const auto cls = static_cast<std::uint32_t>(mine.size());
      mine.push_back({x.run_grams[r], static_cast<std::uint32_t>(x.run_start[r + 1] - x.run_start[r])});
      for (std::size_t i = x.run_start[r]; i < x.run_start[r + 1]; ++i)
        if (const std::uint32_t c = x.candidate[i]; c != self) others.push_back({c, cls, x.candidate_server[c]});
    }
    result.counters.add("quilts.cover_pairs", others.size());
    const std::uint64_t n = gram_counts[di];
    Cover pivot;
    for (std::size_t mi = 0; mi < ms.size(); ++mi) {
      const CoverRules rules{ms[mi], params.min_source_share, params.foreign != Foreign::Off};
      Cover cover = greedy_cover(d.server, mine, others, x.candidate_ids, rules, scratch);
      for (std::size_t ci = 0; ci < cs.size(); ++ci)
        for (std::size_t ti = 0; ti < thetas.size(); ++ti)
          if (is_quilted(n, cover, cs[ci], thetas[ti])) {
            const std::size_t cell = (mi * cs.size() + ci) * thetas.size() + ti;
            ++counts.quilted[cell];
            counts.source_sum[cell] += cover.sources.size();
          }
      if (mi == pivot_m) pivot = std::move(cover);
    }
    const bool q = is_quilted(n, pivot, params.c, params.theta);
    result.pages.push_back({d.url, n, pivot.patch_grams,
                            n == 0 ? 0.0 : static_cast<double>(pivot.patch_grams) / static_cast<double>(n),
                            pivot.sources.size(), static_cast<std::uint8_t>(q)});
    if (q)
      for (const auto& s : pivot.sources) cited.push_back({s.doc, {{d.url, s.covered}}});
  }
  return counts;
}

// The sources' URLs, from their owners (a source is a document, owned where its id says).
void name_sources(comm::Transport& transport, std::vector<CitedSource> cited, const std::vector<Document>& docs,
                  const shuffle::ShuffleConfig& config, std::vector<SourceRow>& sources) {
  const auto named = shuffle::group_by_key(
      transport, std::move(cited), [](const CitedSource& s) { return s.doc; }, owner_of_key, &CitedSource::citations,
      config);
  auto doc = docs.begin();
  for (const auto& s : named) {
    doc = std::lower_bound(doc, docs.end(), s.doc, [](const Document& d, std::uint64_t id) { return d.id < id; });
    if (doc == docs.end() || doc->id != s.doc)
      throw std::logic_error("quilts: a source is not owned where its id says");
    for (const auto& c : s.citations) sources.push_back({c.page, doc->url, c.covered});
  }
}

// Collective: the sweep's rows, totals over all ranks.
std::vector<SweepRow> sweep_rows(comm::Transport& transport, SweepCounts counts, const QuiltParams& params) {
  const auto ms = params.m_values();
  const auto cs = params.c_values();
  const auto thetas = params.theta_values();
  const std::uint64_t all_pages = comm::sum(transport, counts.pages);
  comm::sum(transport, counts.quilted);
  comm::sum(transport, counts.source_sum);
  std::vector<SweepRow> rows;
  for (std::size_t mi = 0; mi < ms.size(); ++mi)
    for (std::size_t ci = 0; ci < cs.size(); ++ci)
      for (std::size_t ti = 0; ti < thetas.size(); ++ti) {
        const std::size_t cell = (mi * cs.size() + ci) * thetas.size() + ti;
        const std::uint64_t quilted = counts.quilted[cell];
        SweepRow row{params.k, ms[mi], cs[ci], thetas[ti], all_pages, quilted, 0.0, 0.0};
        if (all_pages > 0) row.percent = 100.0 * static_cast<double>(quilted) / static_cast<double>(all_pages);
        if (quilted > 0) row.mean_sources = static_cast<double>(counts.source_sum[cell]) / static_cast<double>(quilted);
        rows.push_back(row);
      }
  return rows;
}

}  // namespace

QuiltResult find_quilts(comm::Transport& transport, std::vector<Document> local, const QuiltParams& params,
                        const shuffle::ShuffleConfig& config, const MemoryPlan& memory) {
  QuiltResult result;
  auto docs = own_documents(transport, std::move(local), config);
  std::uint64_t docs_bytes = 0, grams = 0;
  for (const auto& d : docs) {
    docs_bytes += held_bytes(d);
    grams += d.grams.size();
  }
  result.counters.add("quilts.grams", grams);
  // A pass takes at most half the room beside the documents: the classes it builds take the rest.
  result.passes = plan_passes(transport, memory, docs_bytes, 2 * kPassBytesPerGram * grams);
  std::uint64_t classes_bytes = 0;
  std::vector<HolderClass> classes = classes_in_passes(transport, docs, params.m_values().back(), docs_bytes, grams,
                                                       config, memory, result, classes_bytes);
  result.counters.add("quilts.classes", classes.size());
  std::vector<std::uint64_t> gram_counts;  // |grams(d)|: the sets themselves are done with
  gram_counts.reserve(docs.size());
  for (auto& d : docs) {
    gram_counts.push_back(d.grams.size());
    std::vector<std::uint64_t>().swap(d.grams);
  }
  check_peak(transport, memory, "sending the holder classes",
             docs_bytes - grams * sizeof(std::uint64_t) + classes_bytes +
                 kMemberBytes * members_sent(classes, transport.size()));
  release_free_memory();  // the gram sets
  auto members = classes_by_document(transport, classes, config);
  std::vector<HolderClass>().swap(classes);
  const CoverIndex index = index_members(members, transport);
  std::vector<ClassMember>().swap(members);  // the index holds what the covers read

  std::vector<CitedSource> cited;
  const SweepCounts counts = cover_documents(docs, gram_counts, index, params, result, cited);
  result.counters.add("quilts.documents", counts.pages);
  name_sources(transport, std::move(cited), docs, config, result.sources);
  result.sweep = sweep_rows(transport, counts, params);
  return result;
}

}  // namespace crd::quilts
