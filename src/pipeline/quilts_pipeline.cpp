// The quilts pipeline: scan (each text page → its gram set) → find_quilts → sort → write.
#include "crd/pipeline/quilts_pipeline.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <span>

#include "crd/base/printable.hpp"
#include "crd/comm/collectives.hpp"
#include "crd/output/schema.hpp"
#include "crd/pipeline/scan_phase.hpp"
#include "crd/quilts/find_quilts.hpp"
#include "crd/quilts/grams.hpp"
#include "crd/quilts/site.hpp"
#include "crd/shuffle/sort_across_ranks.hpp"
#include "crd/text/fingerprint.hpp"
#include "memory_budget.hpp"
#include "page_list.hpp"

namespace crd::pipeline {

namespace {

// A list written with keys of another form (a typo, another host) excludes nothing without a
// word; so the entries that matched no page on any rank are counted and rank 0 says how many.
void warn_unmatched(comm::Transport& transport, const PageList& list, const std::string& path,
                    std::vector<std::uint32_t> matched) {
  std::sort(matched.begin(), matched.end());
  matched.erase(std::unique(matched.begin(), matched.end()), matched.end());
  auto all = comm::allgather_concat<std::uint32_t>(transport, std::span<const std::uint32_t>(matched));
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  const std::uint64_t unmatched = list.entries() - all.size();
  if (unmatched > 0 && transport.rank() == 0)
    std::fprintf(stderr, "crd quilts: warning: --exclude-pages '%s': %llu of %llu entries matched no page\n",
                 printable(path).c_str(), static_cast<unsigned long long>(unmatched),
                 static_cast<unsigned long long>(list.entries()));
}

}  // namespace

void run_quilts(const CommonOptions& common_options, const quilts::QuiltParams& params, comm::Transport& transport,
                const std::string& exclude_pages) {
  CommonOptions common = common_options;
  const PageList excluded = exclude_pages.empty() ? PageList{} : PageList::load(exclude_pages);
  std::vector<quilts::Document> docs;
  std::uint64_t docs_bytes = 0;  // what `docs` holds, for --memory
  Counters skipped;
  quilts::GramScratch scratch;
  common.scan.chunk_pages = false;
  // Tokenizing and hashing every word is several times slower than reading: a shallow queue keeps
  // the scan busy, and the 64 MiB one would stay resident beside the gram sets.
  common.scan.reader_queue_bytes = std::uint64_t{4} << 20;
  std::vector<std::uint32_t> matched;  // entries of the exclude list that matched a page here
  common.scan.on_page = [&](std::string_view key, const io::Document& doc) {
    if (excluded.contains(key, &matched)) {
      skipped.add("quilts.pages.excluded");
      return;
    }
    auto grams = quilts::page_grams(doc.body, key.substr(0, key.find('/')), params, scratch);
    skipped.add(quilts::counter_name(grams.skipped));
    if (grams.skipped != quilts::GramSkip::None) return;
    docs.push_back(
        {text::term_token(key), std::string(key), quilts::server_id(key, params.foreign), 0, std::move(grams.grams)});
    docs_bytes += quilts::held_bytes(docs.back());
  };

  PhaseTimer timer;
  with_result_file(transport, [&](std::optional<output::ResultFile>& file) {
    // --memory counts the documents' gram sets with the scan's tables: a budget they do not fit
    // stops the scan and fails naming a rank count (passes do not divide them).
    ScanRequest request;
    request.held_bytes = [&] { return docs_bytes + excluded.held_bytes(); };
    const MemoryBudget budget = MemoryBudget::of_job(common, transport);
    ScanPhase scan = run_scan_phase(common, request, budget, transport, timer, file);
    scan.shard.counters.merge(skipped);
    if (excluded.entries() > 0) warn_unmatched(transport, excluded, exclude_pages, std::move(matched));

    shuffle::ExchangeStats stats;
    const shuffle::ShuffleConfig config{common.round_bytes, &stats};
    timer.start("quilts");
    const quilts::MemoryPlan plan{&budget, MemoryBudget::tables_bytes(scan.shard)};
    auto found = quilts::find_quilts(transport, std::move(docs), params, config, plan);
    scan.shard.counters.merge(found.counters);
    scan.passes = found.passes;  // /run/resources counting.passes: over the gram space

    timer.start("write");
    namespace schema = output::schema;
    auto pages = shuffle::sort_across_ranks(transport, std::move(found.pages), FieldLess{}, common.round_bytes);
    auto sources = shuffle::sort_across_ranks(transport, std::move(found.sources), FieldLess{}, common.round_bytes);
    std::uint64_t quilted = 0;
    for (const auto& p : pages) quilted += p.quilted;
    quilted = comm::sum(transport, quilted);
    const std::uint64_t total = comm::sum(transport, pages.size());
    if (transport.rank() != 0) found.sweep.clear();  // the totals, once
    output::write_table(*file, schema::kQuiltPages, pages);
    output::write_table(*file, schema::kQuiltSources, sources);
    output::write_table(*file, schema::kQuiltSweep, found.sweep);
    schema::set_attribute(*file, schema::attr::kQuiltK, std::uint64_t{params.k});
    schema::set_attribute(*file, schema::attr::kQuiltM, std::uint64_t{params.m});
    schema::set_attribute(*file, schema::attr::kQuiltC, std::uint64_t{params.c});
    schema::set_attribute(*file, schema::attr::kQuiltTheta, params.theta);
    schema::set_attribute(*file, schema::attr::kQuiltMinSourceShare, params.min_source_share);
    schema::set_attribute(*file, schema::attr::kQuiltForeign, name_of(params.foreign));
    schema::set_attribute(*file, schema::attr::kQuiltPageCount, total);
    schema::set_attribute(*file, schema::attr::kQuiltQuiltedCount, quilted);

    discover::ShuffleTotals shuffled;
    shuffled.add(stats);
    finish_run(*file, transport, common, scan, shuffled, timer);
  });
}

}  // namespace crd::pipeline
