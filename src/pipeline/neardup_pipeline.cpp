// The neardup pipeline: scan (sketch each text page) → identity sets → candidate pairs → degrees →
// write. See docs/neardup.md.
#include "crd/pipeline/neardup_pipeline.hpp"

#include <optional>

#include "crd/comm/collectives.hpp"
#include "crd/discover/histogram.hpp"
#include "crd/hash/sha1.hpp"
#include "crd/neardup/fingerprint.hpp"
#include "crd/neardup/tokenizer.hpp"
#include "crd/output/schema.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
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
  std::vector<DegreeRecord> ends;
  ends.reserve(2 * pairs.size());
  for (const auto& p : pairs) {
    ends.push_back({p.page_a, 1});
    ends.push_back({p.page_b, 1});
  }
  const auto rows = shuffle::reduce_by_key(
      transport, std::move(ends), [](const DegreeRecord& r) -> const std::string& { return r.page; },
      [](const std::string& page, int nranks) { return scale_to_rank(neardup::term_token(page), nranks); },
      [](DegreeRecord& into, const DegreeRecord& from) { into.degree += from.degree; }, config);
  std::vector<std::uint64_t> degrees;
  degrees.reserve(rows.size());
  for (const auto& r : rows) degrees.push_back(r.degree);
  return degrees;
}

// Collective: /neardup's tables (pairs, degree histogram, identical pages) and its attributes.
void write_neardup(output::ResultFile& file, comm::Transport& transport,
                   const std::vector<neardup::SketchedPage>& sets, std::vector<neardup::PairRow>& pairs,
                   std::vector<discover::HistogramRow>& degree, const neardup::BucketCaps& caps,
                   std::uint64_t sketched, const NeardupOptions& options, std::size_t round_bytes) {
  namespace schema = output::schema;
  auto identical = shuffle::sort_across_ranks(transport, neardup::identity_rows(sets), FieldLess{}, round_bytes);
  std::uint64_t same = 0;
  for (const auto& p : pairs) same += p.same_site;
  const std::uint64_t total_pairs = comm::sum(transport, pairs.size());
  const std::uint64_t same_site = comm::sum(transport, same);
  const std::uint64_t identity_sets = comm::sum(transport, sets.size());
  const std::uint64_t capped[3] = {comm::sum(transport, caps.buckets), comm::sum(transport, caps.pages),
                                   comm::sum(transport, caps.pairs)};
  output::write_table(file, schema::kNeardupPairs, pairs);
  output::write_table(file, schema::kNeardupDegree, degree);
  output::write_table(file, schema::kNeardupIdentical, identical);
  schema::set_attribute(file, schema::attr::kNeardupMethod, std::string(name_of(options.rules.method)));
  schema::set_attribute(file, schema::attr::kNeardupPages, sketched);
  schema::set_attribute(file, schema::attr::kNeardupIdentitySets, identity_sets);
  schema::set_attribute(file, schema::attr::kNeardupPairCount, total_pairs);
  schema::set_attribute(file, schema::attr::kNeardupSameSite, same_site);
  schema::set_attribute(file, schema::attr::kNeardupDifferentSite, total_pairs - same_site);
  schema::set_attribute(file, schema::attr::kNeardupCappedBuckets, capped[0]);
  schema::set_attribute(file, schema::attr::kNeardupCappedPages, capped[1]);
  schema::set_attribute(file, schema::attr::kNeardupCappedPairs, capped[2]);
}

}  // namespace

void run_neardup(const CommonOptions& common_options, const NeardupOptions& options, comm::Transport& transport) {
  CommonOptions common = common_options;
  std::vector<neardup::SketchedPage> pages;
  std::uint64_t sketches_bytes = 0;  // what `pages` holds, for --memory
  std::uint64_t without_tokens = 0;
  Sha1 sha1;
  common.scan.chunk_pages = false;
  common.scan.on_page = [&](std::string_view key, const io::Document& doc) {
    const auto tokens = neardup::tokenize(doc.body, key.substr(0, key.find('/')));
    if (tokens.empty()) {
      ++without_tokens;
      return;
    }
    // The identity of a token sequence: SHA-1 of its tokens' bytes (little-endian words).
    const Digest identity =
        sha1(std::string_view(reinterpret_cast<const char*>(tokens.data()), tokens.size() * sizeof(std::uint64_t)));
    pages.push_back({identity, {std::string(key)}, neardup::sketch(tokens, options.sketch)});
    sketches_bytes += neardup::held_bytes(pages.back());
  };

  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    ScanRequest request;
    request.held_bytes = [&] { return sketches_bytes; };
    ScanPhase scan = run_scan_phase(common, request, transport, timer, file);
    scan.shard.counters.add("neardup.pages.sketched", pages.size());
    scan.shard.counters.add("neardup.pages.no_tokens", without_tokens);
    const std::uint64_t sketched = comm::sum(transport, pages.size());

    shuffle::ExchangeStats stats;
    const shuffle::ShuffleConfig config{common.round_bytes, &stats};
    // --memory: each step's peak on top of the shard's tables, which stay; a reduce_by_key holds
    // its records, their encoded copies and the share it receives (kReduceCopies).
    const MemoryBudget budget(common.memory_budget, common.round_bytes, transport.rank(), transport.size());
    const std::uint64_t tables = MemoryBudget::tables_bytes(scan.shard);
    budget.check_peak(transport, "grouping identical pages", tables + kReduceCopies * sketches_bytes);
    timer.start("identity");
    auto sets = neardup::group_identical(transport, std::move(pages), config);
    std::uint64_t sets_bytes = 0, entries_bytes = 0;
    for (const auto& set : sets) {
      sets_bytes += neardup::held_bytes(set);
      entries_bytes += neardup::bucket_entries_bytes(set, options.rules);
    }
    budget.check_peak(transport, "finding candidate pairs", tables + sets_bytes + kReduceCopies * entries_bytes);
    timer.start("pairs");
    neardup::BucketCaps caps;
    auto pairs = neardup::find_pairs(transport, sets, options.rules, config, caps);
    std::uint64_t pairs_bytes = 0;
    for (const auto& pair : pairs) pairs_bytes += neardup::held_bytes(pair);
    budget.check_peak(transport, "sorting the candidate pairs", tables + sets_bytes + kReduceCopies * pairs_bytes);
    pairs = shuffle::sort_across_ranks(transport, std::move(pairs), FieldLess{}, common.round_bytes);
    timer.start("degree");
    auto degree = discover::build_histogram(transport, page_degrees(transport, pairs, config), common.round_bytes);

    timer.start("write");
    write_neardup(*file, transport, sets, pairs, degree, caps, sketched, options, common.round_bytes);

    discover::ShuffleTotals shuffled;
    shuffled.add(stats);
    finish_run(*file, transport, common, scan, shuffled, timer);
  });
}

}  // namespace crd::pipeline
