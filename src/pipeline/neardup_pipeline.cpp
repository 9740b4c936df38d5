// The neardup pipeline: scan (sketch each text page) → identity sets → candidate pairs → degrees →
// write. See docs/neardup.md.
#include "crd/pipeline/neardup_pipeline.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <span>
#include <string_view>

#include "crd/comm/collectives.hpp"
#include "crd/discover/histogram.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/io/document.hpp"
#include "crd/neardup/boilerplate.hpp"
#include "crd/neardup/clusters.hpp"
#include "crd/neardup/jaccard_check.hpp"
#include "crd/neardup/normalize.hpp"
#include "crd/output/schema.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "crd/text/fingerprint.hpp"
#include "crd/text/tokenizer.hpp"
#include "memory_budget.hpp"

namespace crd::pipeline {
namespace {

// A reduce_by_key's peak over the records handed in: the records, their encoded copies in the
// send buckets, and the owner's received share (even, as owners are spread by hash).
constexpr std::uint64_t kReduceCopies = 3;

// A page's degree in the similarity graph, summed over the pairs it is in.
struct DegreeRecord {
  std::string page;
  std::uint64_t degree = 0;
  static constexpr auto fields() { return std::tuple(&DegreeRecord::page, &DegreeRecord::degree); }
};

std::vector<std::uint64_t> page_degrees(comm::Transport& transport, const std::vector<neardup::PairRow>& pairs,
                                        const shuffle::ShuffleConfig& config) {
  // Combined here first, over views of the pairs' keys: a page in many pairs travels once, and
  // only the distinct pages are copied (--memory counts 16 bytes per pair end, and the records).
  std::vector<std::string_view> views;
  views.reserve(2 * pairs.size());
  for (const auto& p : pairs) {
    views.push_back(p.page_a);
    views.push_back(p.page_b);
  }
  std::sort(views.begin(), views.end());
  std::vector<DegreeRecord> ends;
  for (std::size_t i = 0; i < views.size();) {
    std::size_t j = i + 1;
    while (j < views.size() && views[j] == views[i]) ++j;
    ends.push_back({std::string(views[i]), j - i});
    i = j;
  }
  views = {};
  const auto rows = shuffle::reduce_by_key(
      transport, std::move(ends), [](const DegreeRecord& r) -> const std::string& { return r.page; },
      [](const std::string& page, int nranks) { return scale_to_rank(text::term_token(page), nranks); },
      [](DegreeRecord& into, const DegreeRecord& from) { into.degree += from.degree; }, config);
  std::vector<std::uint64_t> degrees;
  degrees.reserve(rows.size());
  for (const auto& r : rows) degrees.push_back(r.degree);
  return degrees;
}

// What grouping identical pages hands this rank, counted before it is sent: the identity sets'
// sizes summed at their owners. A set of many identical pages lands on one rank whatever the rank
// count, so an even share would undercount it.
struct IdentityBytes {
  Digest identity;
  std::uint64_t bytes = 0;
  static constexpr auto fields() { return std::tuple(&IdentityBytes::identity, &IdentityBytes::bytes); }
};

std::uint64_t identity_share(comm::Transport& transport, const std::vector<neardup::SketchedPage>& pages,
                             const shuffle::ShuffleConfig& config) {
  std::vector<IdentityBytes> records;
  records.reserve(pages.size());
  for (const auto& page : pages) records.push_back({page.identity, neardup::held_bytes(page)});
  std::uint64_t share = 0;
  for (const auto& r : shuffle::reduce_by_key(
           transport, std::move(records), [](const IdentityBytes&r) -> const Digest& { return r.identity; },
           shuffle::HashPrefixOwner{}, [](IdentityBytes&into, const IdentityBytes&from) { into.bytes += from.bytes; },
           config))
    share += r.bytes;
  return share;
}

// --memory: the check find_pairs runs before the bucket owners fetch their members' sketches, given
// the bytes they will receive; `held` as for pair_checks. Empty (no check) without a budget.
std::function<void(std::uint64_t)> fetch_check(comm::Transport& transport, const MemoryBudget& budget,
                                               std::uint64_t held) {
  if (budget.budget() == 0) return {};
  return [&transport, &budget, held](std::uint64_t bytes) {
    budget.check_peak(transport, "fetching the buckets' sketches", held + bytes);
  };
}

// --memory: the checks of every step from comparing the candidate pairs to sorting the identical
// pages, run by find_pairs once it has counted the pairs and before it makes the first. `held`:
// what stays through them (the shard's tables and the identity sets); all_sets_bytes: the job's
// identity sets; identical_bytes: this rank's /neardup/identical rows.
std::function<void(const neardup::PairVolume&)> pair_checks(comm::Transport& transport, const MemoryBudget& budget,
                                                            std::uint64_t held, std::uint64_t all_sets_bytes,
                                                            std::uint64_t identical_bytes) {
  return [&transport, &budget, held, all_sets_bytes, identical_bytes](const neardup::PairVolume& v) {
    // A rank's share once sorted across ranks: an even share of all, or what it has if more.
    const auto spread = [&](std::uint64_t local) {
      const std::uint64_t n = static_cast<std::uint64_t>(transport.size());
      return std::max(local, (comm::sum(transport, local) + n - 1) / n);
    };
    const std::uint64_t pairs_bytes = v.pairs * sizeof(neardup::PairRow) + v.key_bytes;
    const std::uint64_t sorted = spread(pairs_bytes);
    const std::uint64_t sorted_pairs = spread(v.pairs);
    // Degree records: one per distinct page of a rank's pairs, at most one per pair end and at
    // most one per identity set of the job (each costs no more than the set's held bytes).
    const std::uint64_t ends_bytes = std::min(spread(v.pairs * 2 * sizeof(DegreeRecord) + v.key_bytes), all_sets_bytes);
    // The cluster edges made while comparing stay until the clusters are joined.
    const std::uint64_t kept = held + v.forest_bytes;
    budget.check_peak(transport, "comparing the candidate pairs", kept + v.bucket_bytes + pairs_bytes);
    budget.check_peak(transport, "sorting the candidate pairs", kept + kReduceCopies * sorted);
    budget.check_peak(transport, "counting the pages' degrees",
                      kept + sorted + 2 * sorted_pairs * sizeof(std::string_view) + kReduceCopies * ends_bytes);
    budget.check_peak(transport, "sorting the identical pages",
                      kept + sorted + kReduceCopies * spread(identical_bytes));
  };
}

// Collective: /neardup's tables (pairs, degree histogram, identical pages) and its attributes.
void write_neardup(output::ResultFile& file, comm::Transport& transport, const std::vector<neardup::SketchedPage>& sets,
                   std::vector<neardup::PairRow>& pairs, std::vector<discover::HistogramRow>& degree,
                   neardup::Clusters& clusters, const neardup::BucketCaps& caps, std::uint64_t sketched,
                   const NeardupOptions& options, std::size_t round_bytes) {
  namespace schema = output::schema;
  auto identical = shuffle::sort_across_ranks(transport, neardup::identity_rows(sets), FieldLess{}, round_bytes);
  std::uint64_t same = 0;
  for (const auto& p : pairs) same += p.same_site;
  const std::uint64_t total_pairs = comm::sum(transport, pairs.size());
  const std::uint64_t same_site = comm::sum(transport, same);
  const std::uint64_t identity_sets = comm::sum(transport, sets.size());
  const std::uint64_t capped[3] = {comm::sum(transport, caps.buckets), comm::sum(transport, caps.pages),
                                   comm::sum(transport, caps.pairs)};
  const std::uint64_t not_kept = comm::sum(transport, caps.pairs_not_kept);
  const std::uint64_t unlinked = comm::sum(transport, caps.unlinked);
  const std::uint64_t cluster_count = comm::sum(transport, clusters.representatives.size());
  const std::uint64_t clustered = comm::sum(transport, clusters.rows.size());
  output::write_table(file, options.rules.min_jaccard > 0 ? schema::kNeardupPairs : schema::kNeardupPairsUnchecked,
                      pairs);
  output::write_table(file, schema::kNeardupDegree, degree);
  output::write_table(file, schema::kNeardupIdentical, identical);
  output::write_table(file, schema::kNeardupClusters, clusters.rows);
  output::write_table(file, schema::kNeardupRepresentatives, clusters.representatives);
  schema::set_attribute(file, schema::attr::kNeardupMethod, std::string(name_of(options.rules.method)));
  schema::set_attribute(file, schema::attr::kNeardupPages, sketched);
  schema::set_attribute(file, schema::attr::kNeardupIdentitySets, identity_sets);
  schema::set_attribute(file, schema::attr::kNeardupPairCount, total_pairs);
  schema::set_attribute(file, schema::attr::kNeardupSameSite, same_site);
  schema::set_attribute(file, schema::attr::kNeardupDifferentSite, total_pairs - same_site);
  schema::set_attribute(file, schema::attr::kNeardupCappedBuckets, capped[0]);
  schema::set_attribute(file, schema::attr::kNeardupCappedPages, capped[1]);
  schema::set_attribute(file, schema::attr::kNeardupCappedPairs, capped[2]);
  schema::set_attribute(file, schema::attr::kNeardupPairsNotKept, not_kept);
  schema::set_attribute(file, schema::attr::kNeardupClusterCount, cluster_count);
  schema::set_attribute(file, schema::attr::kNeardupClusteredPages, clustered);
  schema::set_attribute(file, schema::attr::kNeardupUnlinkedEntries, unlinked);
  schema::set_attribute(file, schema::attr::kNeardupRepresentativeRule, std::string(neardup::kRepresentativeRule));
}

// --boilerplate-pages: the pages of the shard as blocks, held through the scan until the job's
// block counts say which blocks to leave out (neardup/boilerplate.hpp).
struct BlockedPages {
  struct Page {
    std::string key;
    neardup::BlockTokens blocks;
  };
  std::vector<Page> pages;
  std::vector<neardup::BlockCount> counts;
  std::uint64_t bytes = 0;  // what both hold, for --memory

  void add(std::string_view key, neardup::BlockTokens&& blocks) {
    neardup::count_blocks(blocks, counts);
    bytes += sizeof(Page) + key.size() + blocks.tokens.capacity() * sizeof(std::uint64_t) +
             blocks.ends.capacity() * sizeof(std::uint32_t) + blocks.keys.capacity() * sizeof(std::uint64_t) +
             blocks.keys.size() * sizeof(neardup::BlockCount);
    pages.push_back({std::string(key), std::move(blocks)});
  }
};

// One page of the scan: with --boilerplate-pages its blocks are held (blocked) until the job's
// block counts are known; otherwise its tokens are sketched at once (add_page). A page without
// tokens is only counted.
template <class AddPage>
void take_page(std::string_view key, const io::Document& doc, const NeardupOptions& options, BlockedPages& blocked,
               std::uint64_t& without_tokens, AddPage& add_page) {
  const std::string_view host = key.substr(0, key.find('/'));
  if (options.boilerplate_pages != 0) {
    neardup::BlockTokens blocks;
    std::string_view type = doc.content_type;  // as io::is_chunkable reads it
    if (type.empty() || type == "application/octet-stream") type = io::sniff_media_type(doc.body);
    neardup::tokenize_blocks(doc.body, host, options.normalize_text, blocks, type.starts_with("text/plain"));
    if (blocks.tokens.empty())
      ++without_tokens;
    else
      blocked.add(key, std::move(blocks));
    return;
  }
  const auto tokens =
      options.normalize_text ? neardup::tokenize_normalized(doc.body, host) : text::tokenize(doc.body, host);
  if (tokens.empty()) {
    ++without_tokens;
    return;
  }
  add_page(key, tokens);
}

// --boilerplate-pages, after the scan: the job's block counts say which blocks to leave out, and
// each blocked page's other tokens are sketched (add_page) unless none is left. Empties `blocked`.
template <class AddPage>
void drop_boilerplate(comm::Transport& transport, const MemoryBudget& budget, std::uint64_t boilerplate_pages,
                      const shuffle::ShuffleConfig& config, ScanPhase& scan, BlockedPages& blocked, AddPage& add_page) {
  budget.check_peak(transport, "counting boilerplate blocks",
                    MemoryBudget::tables_bytes(scan.shard) + blocked.bytes +
                        kReduceCopies * blocked.counts.size() * sizeof(neardup::BlockCount));
  const auto left_out = neardup::boilerplate_keys(transport, std::move(blocked.counts), boilerplate_pages, config);
  std::uint64_t removed = 0, only_boilerplate = 0;
  for (auto& page : blocked.pages) {
    const auto kept = neardup::kept_tokens(page.blocks, left_out);
    removed += page.blocks.tokens.size() - kept.size();
    if (kept.empty())
      ++only_boilerplate;
    else
      add_page(page.key, kept);
    page.blocks = {};
  }
  blocked = {};
  if (transport.rank() == 0) scan.shard.counters.add("neardup.boilerplate.blocks", left_out.size());
  scan.shard.counters.add("neardup.boilerplate.tokens_removed", removed);
  scan.shard.counters.add("neardup.pages.only_boilerplate", only_boilerplate);
}

// What this rank's identity sets hold (--memory): the sets, their bucket entries, and their
// /neardup/identical rows.
struct SetsBytes {
  std::uint64_t sets = 0, entries = 0, identical = 0, samples = 0, cluster_pages = 0;
};

SetsBytes bytes_of(const std::vector<neardup::SketchedPage>& sets, const neardup::PairRules& rules) {
  SetsBytes out;
  for (const auto& set : sets) {
    out.sets += neardup::held_bytes(set);
    out.entries += neardup::bucket_entries_bytes(set, rules);
    out.samples += set.sample.capacity() * sizeof(std::uint32_t);
    out.cluster_pages += neardup::cluster_pages_bytes(set);
    for (std::size_t i = 1; i < set.pages.size(); ++i)
      out.identical += sizeof(neardup::IdentityRow) + heap_bytes(set.pages[i]) + heap_bytes(set.pages[0]);
  }
  return out;
}

// Collective, --memory before the clusters: rank 0 joins every rank's forest (of `sets` identity
// sets over the job); then each cluster's pages meet at its root's owner (an even share, as roots
// are spread over the ranks by identity digest). held: what stays through them; pages_bytes: this
// rank's identity sets' pages as they travel to their roots (clusters.hpp).
void check_cluster_memory(comm::Transport& transport, const MemoryBudget& budget, std::uint64_t held,
                          const std::vector<neardup::PairRow>& pairs, const std::vector<neardup::ClusterEdge>& edges,
                          std::uint64_t sets, std::uint64_t pages_bytes) {
  std::uint64_t pairs_bytes = 0;
  for (const auto& p : pairs) pairs_bytes += neardup::held_bytes(p);
  const std::uint64_t edge_bytes = edges.capacity() * sizeof(neardup::ClusterEdge);
  const std::uint64_t all_edges = comm::sum(transport, edges.size());
  const std::uint64_t join = transport.rank() == 0 ? neardup::join_bytes(sets, all_edges) : 0;
  budget.check_peak(transport, "joining the clusters", held + pairs_bytes + kReduceCopies * edge_bytes + join);
  const std::uint64_t n = static_cast<std::uint64_t>(transport.size());
  budget.check_peak(transport, "grouping the clusters",
                    held + pairs_bytes + kReduceCopies * ((comm::sum(transport, pages_bytes) + n - 1) / n));
}

// --min-jaccard: the candidates below the threshold, over the job.
struct JaccardDropped {
  std::uint64_t pairs = 0, edges = 0;
};

void write_jaccard_attributes(output::ResultFile& file, const NeardupOptions& options, const JaccardDropped& dropped) {
  namespace schema = output::schema;
  schema::set_attribute(file, schema::attr::kNeardupMinJaccard, options.rules.min_jaccard);
  schema::set_attribute(file, schema::attr::kNeardupJaccardSample, std::uint64_t{options.sketch.jaccard_sample});
  schema::set_attribute(file, schema::attr::kNeardupJaccardDroppedPairs, dropped.pairs);
  schema::set_attribute(file, schema::attr::kNeardupJaccardDroppedEdges, dropped.edges);
}

// Collective, --memory before the Jaccard join (jaccard_check.hpp): the candidates travel twice
// (each exchange holds them, their encoded copies and the share received), with at most one copy
// of a sample per candidate, or per set and rank. held: what stays through it; samples_bytes: this
// rank's sets' samples.
void check_jaccard_memory(comm::Transport& transport, const MemoryBudget& budget, std::uint64_t held,
                          const std::vector<neardup::JaccardCandidate>& candidates, std::uint64_t samples_bytes,
                          std::uint32_t k) {
  std::uint64_t bytes = 0;
  for (const auto& c : candidates) bytes += neardup::held_bytes(c);
  const std::uint64_t n = static_cast<std::uint64_t>(transport.size());
  const std::uint64_t copies = std::min(comm::sum(transport, candidates.size()) * k * sizeof(std::uint32_t),
                                        n * comm::sum(transport, samples_bytes));
  budget.check_peak(transport, "estimating the candidates' Jaccard",
                    held + kReduceCopies * ((comm::sum(transport, bytes) + copies + n - 1) / n));
}

// The shard's page counters of the sketch step.
void count_pages(ScanPhase& scan, const NeardupOptions& options, std::uint64_t sketched, std::uint64_t without_tokens,
                 std::uint64_t too_short) {
  scan.shard.counters.add("neardup.pages.sketched", sketched);
  scan.shard.counters.add("neardup.pages.no_tokens", without_tokens);
  if (options.sketch.min_shingles != 0) scan.shard.counters.add("neardup.pages.too_short", too_short);
}

discover::ShuffleTotals totals_of(const shuffle::ExchangeStats& stats) {
  discover::ShuffleTotals shuffled;
  shuffled.add(stats);
  return shuffled;
}

// --min-jaccard: the candidates whose estimated Jaccard passes replace the bands' pairs and
// cluster edges (jaccard_check.hpp). Collective; returns what was dropped, over the job.
JaccardDropped keep_similar(comm::Transport& transport, const std::vector<neardup::SketchedPage>& sets,
                            const std::vector<std::uint64_t>& offsets,
                            std::vector<neardup::JaccardCandidate> candidates, const NeardupOptions& options,
                            const shuffle::ShuffleConfig& config, std::vector<neardup::PairRow>& pairs,
                            std::vector<neardup::ClusterEdge>& edges) {
  auto checked = neardup::check_jaccard(transport, sets, offsets, std::move(candidates), options.rules.min_jaccard,
                                        options.sketch.jaccard_sample, config);
  pairs = std::move(checked.pairs);
  edges = std::move(checked.edges);
  return {comm::sum(transport, checked.dropped_pairs), comm::sum(transport, checked.dropped_edges)};
}

}  // namespace

void run_neardup(const CommonOptions& common_options, const NeardupOptions& options, comm::Transport& transport) {
  CommonOptions common = common_options;
  const bool verify = options.rules.min_jaccard > 0;  // --min-jaccard: candidates checked by their estimate
  std::vector<neardup::SketchedPage> pages;
  std::uint64_t sketches_bytes = 0;  // what `pages` holds, for --memory
  std::uint64_t without_tokens = 0, too_short = 0;
  Sha1 sha1;
  const auto add_page = [&](std::string_view key, std::span<const std::uint64_t> tokens) {
    // The identity of a token sequence: SHA-1 of its tokens' bytes (little-endian words).
    const Digest identity =
        sha1(std::string_view(reinterpret_cast<const char*>(tokens.data()), tokens.size() * sizeof(std::uint64_t)));
    neardup::SketchedPage page{identity, {std::string(key)}, {}, {}};
    page.sketch = neardup::sketch(tokens, options.sketch, verify ? &page.sample : nullptr);
    pages.push_back(std::move(page));
    if (pages.back().sketch.super.empty()) ++too_short;  // --min-shingles
    sketches_bytes += neardup::held_bytes(pages.back());
  };
  BlockedPages blocked;
  common.scan.chunk_pages = false;
  common.scan.on_page = [&](std::string_view key, const io::Document& doc) {
    take_page(key, doc, options, blocked, without_tokens, add_page);
  };

  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    const MemoryBudget budget = MemoryBudget::of_job(common, transport);
    ScanRequest request;
    request.held_bytes = [&] { return sketches_bytes + blocked.bytes; };
    ScanPhase scan = run_scan_phase(common, request, budget, transport, timer, file);
    shuffle::ExchangeStats stats;
    const shuffle::ShuffleConfig config{common.round_bytes, &stats};
    // --memory: each step's peak on top of the shard's tables, which stay; a reduce_by_key or a
    // sort across ranks holds its records, their encoded copies and the share it receives
    // (kReduceCopies). Every step up to the output is checked before the first pair is made.
    if (options.boilerplate_pages != 0) {
      timer.start("boilerplate");
      drop_boilerplate(transport, budget, options.boilerplate_pages, config, scan, blocked, add_page);
    }
    count_pages(scan, options, pages.size(), without_tokens, too_short);
    const std::uint64_t sketched = comm::sum(transport, pages.size());

    const std::uint64_t tables = MemoryBudget::tables_bytes(scan.shard);
    if (budget.budget() != 0)
      budget.check_peak(transport, "grouping identical pages",
                        tables + 2 * sketches_bytes + identity_share(transport, pages, config));
    timer.start("identity");
    auto sets = neardup::group_identical(transport, std::move(pages), config);
    const SetsBytes sets_bytes = bytes_of(sets, options.rules);
    const std::uint64_t held = tables + sets_bytes.sets;
    budget.check_peak(transport, "finding candidate pairs", held + kReduceCopies * sets_bytes.entries);
    timer.start("pairs");
    neardup::BucketCaps caps;
    std::vector<neardup::ClusterEdge> edges;
    std::vector<neardup::JaccardCandidate> candidates;
    auto pairs = neardup::find_pairs(
        transport, sets, options.rules, config, caps,
        budget.budget() != 0
            ? pair_checks(transport, budget, held, comm::sum(transport, sets_bytes.sets), sets_bytes.identical)
            : std::function<void(const neardup::PairVolume&)>{},
        &edges, verify ? &candidates : nullptr, fetch_check(transport, budget, held));
    const auto offsets = neardup::set_ids(transport, sets.size());
    JaccardDropped dropped;
    if (verify) {
      timer.start("jaccard");
      if (budget.budget() != 0)
        check_jaccard_memory(transport, budget, held, candidates, sets_bytes.samples, options.sketch.jaccard_sample);
      dropped = keep_similar(transport, sets, offsets, std::move(candidates), options, config, pairs, edges);
    }
    pairs = shuffle::sort_across_ranks(transport, std::move(pairs), FieldLess{}, common.round_bytes);
    timer.start("clusters");
    if (budget.budget() != 0)
      check_cluster_memory(transport, budget, held, pairs, edges, offsets.back(), sets_bytes.cluster_pages);
    auto clusters = neardup::label_clusters(transport, sets, offsets, std::move(edges), config);
    timer.start("degree");
    auto degree = discover::build_histogram(transport, page_degrees(transport, pairs, config), common.round_bytes);

    timer.start("write");
    write_neardup(*file, transport, sets, pairs, degree, clusters, caps, sketched, options, common.round_bytes);
    if (verify) write_jaccard_attributes(*file, options, dropped);
    finish_run(*file, transport, common, scan, totals_of(stats), timer);
  });
}

}  // namespace crd::pipeline
